// What a session's process puts on the bus for the others, kept small: the bus is bounded in bytes per session
// (and, on Redis, per key prefix), and a message is read within milliseconds, so it carries only what the
// reader acts on.
import type { SessionBusMessageTooLargeError } from '../../errors/session-bus-message-too-large-error';
import type { SessionLinkMessage } from './session-link';

/** Longest `reason` of a client's cancel passed to the other processes, in characters (it is for people). */
export const MAX_CANCEL_REASON_LENGTH = 1_000;

/** Longest string request id a cancel names on the bus (a request's own ids are far shorter). */
export const MAX_CANCEL_REQUEST_ID_LENGTH = 256;

/**
 * The message as it goes on the bus: a cancel carries its request id and its reason cut to
 * {@link MAX_CANCEL_REASON_LENGTH} (nothing else of the client's notification); other messages as they are.
 * Undefined for a cancel whose request id is no id at all (not a safe integer, nor a string of at most
 * {@link MAX_CANCEL_REQUEST_ID_LENGTH} characters): it names no request and is not passed on.
 */
export function toBoundedLinkMessage(message: SessionLinkMessage): SessionLinkMessage | undefined {
  if (message.t !== 'cancel') return message;
  const params = (message.m.params ?? {}) as { requestId?: unknown; reason?: unknown };
  const { requestId } = params;
  const isId =
    Number.isSafeInteger(requestId) ||
    (typeof requestId === 'string' && requestId.length <= MAX_CANCEL_REQUEST_ID_LENGTH);
  if (!isId) return undefined;
  const reason =
    typeof params.reason === 'string' ? params.reason.slice(0, MAX_CANCEL_REASON_LENGTH) : undefined;
  return {
    t: 'cancel',
    from: message.from,
    m: {
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId, ...(reason === undefined ? {} : { reason }) },
    },
  };
}

/**
 * What the process that asked gets instead of a client's answer too big for the bus: a JSON-RPC error for
 * the same request, so the call waiting for it fails at once with the reason instead of at its timeout.
 * Undefined for a message that is not an answer.
 */
export function toAnswerTooBig(
  message: SessionLinkMessage,
  error: SessionBusMessageTooLargeError,
): SessionLinkMessage | undefined {
  if (message.t !== 'answer') return undefined;
  return {
    t: 'answer',
    to: message.to,
    m: {
      jsonrpc: '2.0',
      id: message.m.id,
      error: {
        code: -32603,
        message: `The client's answer to this request was too big to pass to the server process that asked for it (${error.bytes} bytes; the session bus takes at most ${error.maxBytes}), so it was dropped; answer with less, or raise the server's maxBodyBytes.`,
      },
    },
  };
}
