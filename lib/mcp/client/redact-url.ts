/** A URL without user info, with query values replaced by `redacted`. */
export function redactUrl(url: URL): string {
  const copy = new URL(url.href);
  copy.username = '';
  copy.password = '';
  for (const key of [...new Set(copy.searchParams.keys())]) copy.searchParams.set(key, 'redacted');
  return copy.href;
}
