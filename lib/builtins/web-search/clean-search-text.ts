const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000e-\u001f\u007f-\u009f\u200b\u2028\u2029\ufeff]/gu;
const LONE_SURROGATES = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/gu;

/**
 * Returns provider text as one clean line: control characters removed, whitespace runs collapsed to one
 * space, lone surrogates replaced, and cut to at most `maxLength` characters without splitting a pair.
 */
export function cleanSearchText(text: string, maxLength: number): string {
  const collapsed = text
    .replace(LONE_SURROGATES, '\ufffd')
    .replace(CONTROL_CHARACTERS, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
  return truncateText(collapsed, maxLength);
}

/** Cuts text to at most `maxLength` UTF-16 units, never in the middle of a surrogate pair, trimming the end. */
export function truncateText(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text;
  let end = Math.max(0, maxLength);
  const last = text.charCodeAt(end - 1);
  if (end > 0 && last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end).trimEnd();
}
