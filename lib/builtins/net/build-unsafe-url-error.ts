import { UnsafeUrlError } from '../../errors/unsafe-url-error';

const MAX_SHOWN_URL_LENGTH = 120;

/**
 * Builds the {@link UnsafeUrlError} of the safe HTTP layer: names the refused URL (shortened, control and
 * non-ASCII characters shown as `?`), says why, and how to fix it.
 */
export function buildUnsafeUrlError(
  url: string,
  detail: string,
  reason: string,
  options: { toolName?: string; cause?: unknown } = {},
): UnsafeUrlError {
  const prefix = options.toolName === undefined ? '' : `${options.toolName}: `;
  return new UnsafeUrlError(
    `${prefix}refused to fetch '${showUrl(url)}': ${detail}. Only public http(s) URLs on the default ports can be fetched.`,
    { reason, toolName: options.toolName, cause: options.cause },
  );
}

/** Returns a URL safe to show in a message: printable ASCII only, at most 120 characters. */
export function showUrl(url: string): string {
  const printable = url.replace(/[^\x20-\x7e]/gu, '?');
  return printable.length > MAX_SHOWN_URL_LENGTH ? `${printable.slice(0, MAX_SHOWN_URL_LENGTH)}…` : printable;
}
