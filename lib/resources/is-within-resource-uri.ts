/** Characters no segment of a sub-resource may hold, raw or percent-decoded: separators and controls. */
const UNSAFE_IN_SEGMENT = /[/\\\u0000-\u001f\u007f]/;

/**
 * Whether a contents item labelled `itemUri` belongs to a read of `readUri`: the URI itself, or a sub-resource
 * under it as a path prefix (`file:///docs/` or `file:///docs` holds `file:///docs/a.md`; MCP's
 * `ResourceContents` are "the contents of a specific resource or sub-resource"). URIs are compared as strings,
 * never resolved: a sub-resource's remaining path may not hold a `.` or `..` segment, a backslash or a control
 * character, raw or percent-encoded, and a URI with a query or fragment has no sub-resources.
 */
export function isWithinResourceUri(readUri: string, itemUri: string): boolean {
  if (itemUri === readUri) return true;
  // A query or a fragment picks a view of one resource; nothing lies under it.
  if (readUri.includes('?') || readUri.includes('#')) return false;
  const base = readUri.endsWith('/') ? readUri : `${readUri}/`;
  if (itemUri.length <= base.length || !itemUri.startsWith(base)) return false;
  const rest = itemUri.slice(base.length);
  if (/[\\\u0000-\u001f\u007f]/.test(rest)) return false;
  const path = rest.split(/[?#]/, 1)[0];
  return path.split('/').every(isPlainSegment);
}

function isPlainSegment(segment: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    return false;
  }
  return decoded !== '.' && decoded !== '..' && !UNSAFE_IN_SEGMENT.test(decoded);
}
