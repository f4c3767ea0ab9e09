/** Fixed limits of `fetch_url` (SPEC.md section 4, reference section 1M). */
export const FETCH_URL_LIMITS = Object.freeze({
  /** The tool's name. */
  toolName: 'fetch_url',
  /** Longest accepted URL, in characters (also for every redirect target). */
  maxUrlLength: 2048,
  /** Fewest and most characters of text returned. */
  minChars: 1,
  maxChars: 50_000,
  /** Characters returned when `max_chars` is not given. */
  defaultChars: 12_000,
  /** Most body bytes read, counted while streaming; a longer body is a ToolRuntimeError. */
  maxResponseBytes: 1_000_000,
  /** One deadline for the whole call (DNS, connect, headers, body, every redirect), in milliseconds. */
  timeoutMs: 10_000,
  /** Redirects followed, each re-validated. */
  maxRedirects: 4,
  /** Longest title returned. */
  maxTitleLength: 500,
});
