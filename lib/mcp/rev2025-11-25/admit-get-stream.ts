import type { IncomingMessage, ServerResponse } from 'node:http';
import { isSessionEraVersion } from '../wire/protocol-eras';
import type { McpSession } from './mcp-session-store';
import { sendJsonRpcError } from '../wire/send-json-rpc-error';
import { sendStoredReplay } from './send-stored-replay';

/** What {@link admitGetStream} did with a GET. */
export type GetStreamAdmission = 'dispatch' | 'answered';

/**
 * Decides on a GET of a stateful session (its notification stream, or with `Last-Event-ID` the resume of
 * a stream) before the SDK's transport opens anything: a `Last-Event-ID` the session's store does not hold
 * (made up, or dropped or expired) gets 400; a GET beyond `maxStreams` open streams of the session gets 429;
 * the resume of a complete stream is answered here with its replay and closed. Otherwise it resolves
 * 'dispatch' and counts the stream as open until its response closes. With `shared` (sessions shared
 * through a store), a store that fails is answered by it (503 when unavailable) instead of thrown.
 */
export async function admitGetStream(
  session: McpSession,
  request: IncomingMessage,
  response: ServerResponse,
  maxStreams: number,
  shared?: { answerStoreError(error: unknown, response: ServerResponse): void },
): Promise<GetStreamAdmission> {
  if (!shared) return admit(session, request, response, maxStreams);
  try {
    return await admit(session, request, response, maxStreams);
  } catch (error) {
    // A shared store that failed meanwhile (after the session was resolved) is a 503, as everywhere else.
    shared.answerStoreError(error, response);
    return 'answered';
  }
}

async function admit(
  session: McpSession,
  request: IncomingMessage,
  response: ServerResponse,
  maxStreams: number,
): Promise<GetStreamAdmission> {
  const header = request.headers['last-event-id'];
  const lastEventId = session.eventStore && typeof header === 'string' && header !== '' ? header : undefined;
  const store = session.eventStore;
  let streamId: string | undefined;
  if (lastEventId !== undefined && store?.getStreamIdForEventId) {
    streamId = await store.getStreamIdForEventId(lastEventId);
    if (streamId === undefined) {
      sendUnknownEventId(response, lastEventId);
      return 'answered';
    }
  }
  if (session.getStreams >= maxStreams) {
    sendJsonRpcError(
      response,
      429,
      -32000,
      `Too Many Requests: this session already has ${maxStreams} GET streams open (its notification stream and resumed streams); close one, or retry when a call ends.`,
      { 'retry-after': '1' },
    );
    return 'answered';
  }
  session.getStreams += 1;
  response.once('close', () => {
    session.getStreams -= 1;
  });
  if (
    lastEventId !== undefined &&
    streamId !== undefined &&
    store?.isStreamComplete &&
    isPlainSseRequest(request) &&
    (await store.isStreamComplete(streamId))
  ) {
    if (!(await sendStoredReplay(store, lastEventId, session.id, response)))
      sendUnknownEventId(response, lastEventId);
    return 'answered';
  }
  return 'dispatch';
}

function sendUnknownEventId(response: ServerResponse, lastEventId: string): void {
  sendJsonRpcError(
    response,
    400,
    -32000,
    `Invalid event ID: Last-Event-ID '${lastEventId.slice(0, 100)}' is unknown or expired in this session (never issued, or no longer kept); open a new stream without Last-Event-ID, or re-send the request.`,
  );
}

/** A GET the SDK's transport would accept as is; anything else goes to it, to be answered its way. */
export function isPlainSseRequest(request: IncomingMessage): boolean {
  const version = request.headers['mcp-protocol-version'];
  return (
    (request.headers.accept ?? '').includes('text/event-stream') &&
    (version === undefined || isSessionEraVersion(version))
  );
}
