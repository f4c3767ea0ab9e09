/**
 * The text a cancellation gives for an aborted signal's reason: an Error's message, anything else as a string
 * (a DOMException "AbortError" from `AbortController.abort()` included), undefined for no reason.
 */
export function describeAbortReason(reason: unknown): string | undefined {
  if (reason === undefined) return undefined;
  if (reason instanceof Error) return reason.message;
  return String(reason);
}
