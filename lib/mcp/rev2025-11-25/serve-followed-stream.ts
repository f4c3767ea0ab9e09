import type { IncomingMessage, ServerResponse } from 'node:http';
import { ToolInputError } from '../../errors/tool-input-error';
import { SessionStoreUnavailableError } from '../../errors/session-store-unavailable-error';
import type { CallLeases } from '../../state/call-leases';
import type { SessionLink } from './session-link';
import { STANDALONE_STREAM_ID } from './session-link';

/** How often a followed stream is read even without a wake-up (a wake-up lost on the bus costs this). */
const POLL_INTERVAL_MS = 1_000;

/** Polls in a row that must find a call's process gone before its requests are answered as lost. */
const LOST_AFTER_POLLS = 2;

/** The error a request gets when the process running it died before answering. */
export const LOST_INSTANCE_MESSAGE =
  'The server instance running this request was lost before it answered (it stopped or crashed); send the request again.';

/** How often an idle stream gets an SSE comment, so proxies keep it open. */
const KEEP_ALIVE_MS = 15_000;

/** Options of {@link serveFollowedStream}. */
export interface FollowedStreamOptions {
  /** The session's link to the other processes. */
  readonly link: SessionLink;
  readonly sessionId: string;
  /** The SSE `retry` field, in ms, when streams are resumable. */
  readonly retryMs?: number;
  /** Who runs the followed stream's requests: without it, a call whose process died is never answered here. */
  readonly leases?: CallLeases;
  /** A failure of the shared log while following (the stream is then cut; the client resumes). */
  readonly onError: (error: unknown) => void;
}

/**
 * Serves a GET stream of a session served by several processes from the shared event log: the session's
 * notification stream (no `Last-Event-ID`) or the resume of a call's stream, wherever the call runs. What was
 * stored after the cursor is sent, then every event stored later, woken by the bus (and read once a second
 * besides, so a lost wake-up only delays); a call's stream ends once its final response was sent.
 */
export async function serveFollowedStream(
  request: IncomingMessage,
  response: ServerResponse,
  options: FollowedStreamOptions,
): Promise<void> {
  const { link } = options;
  const store = link.eventStore;
  const header = request.headers['last-event-id'];
  const resumedFrom = typeof header === 'string' && header !== '' ? header : undefined;
  const streamId = resumedFrom ? await store.getStreamIdForEventId?.(resumedFrom) : STANDALONE_STREAM_ID;
  if (streamId === undefined) {
    throw new ToolInputError(
      `Unknown or expired event id '${String(resumedFrom).slice(0, 100)}': it is no longer kept; re-send the request.`,
    );
  }
  // A fresh notification stream starts after an event of its own, so the client can resume from there.
  let cursor = resumedFrom ?? (await store.storeEvent(STANDALONE_STREAM_ID, {}));
  // An empty id: the store went down just now (the event was not kept), so there is nothing to follow from.
  if (cursor === '')
    throw new SessionStoreUnavailableError({ reason: 'the stream could not be started in the event log' });
  let closed = false;
  response.once('close', () => (closed = true));
  response.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'mcp-session-id': options.sessionId,
  });
  if (!resumedFrom) {
    const retry = options.retryMs !== undefined ? `retry: ${options.retryMs}\n` : '';
    response.write(`id: ${cursor}\n${retry}data: \n\n`);
  }
  response.flushHeaders();

  let running: Promise<void> | undefined;
  let again = false;
  const answered = new Set<string | number>();
  let lostPolls = 0;
  const finish = () => {
    if (!response.writableEnded) response.end();
  };
  const pump = async (): Promise<void> => {
    do {
      again = false;
      // Read on from the cursor even once the bounds dropped its event (an idle stream's cursor is the
      // oldest event of the session, the first to go): the stream goes on, missing only what was dropped.
      const held = await link.readAfter(streamId, cursor, async (eventId, message) => {
        if (closed) return;
        cursor = eventId;
        if (Object.keys(message).length === 0) return;
        if (isResponse(message)) answered.add(message.id as string | number);
        response.write(`event: message\nid: ${eventId}\ndata: ${JSON.stringify(message)}\n\n`);
      });
      if (streamId === STANDALONE_STREAM_ID) continue;
      const complete = (await store.isStreamComplete?.(streamId)) === true;
      if (!held && !complete) {
        // The log forgot the whole stream (an event too big for the bounds, or the bounds dropped all of it):
        // what is missing can never come. The stream is cut; the client's resume is refused and it re-sends.
        throw new ToolInputError(
          `The stream of event '${cursor.slice(0, 100)}' is no longer kept (an event was too big for the event store's bounds, or they dropped it); re-send the request.`,
        );
      }
      if (complete) {
        // Whatever was stored up to completion is sent: read once more, then end.
        await link.readAfter(streamId, cursor, async (eventId, message) => {
          if (closed) return;
          cursor = eventId;
          if (Object.keys(message).length > 0)
            response.write(`event: message\nid: ${eventId}\ndata: ${JSON.stringify(message)}\n\n`);
        });
        finish();
        return;
      }
    } while (again && !closed);
  };
  /** On a poll: answers the stream's requests as lost once its process stopped renewing its heartbeat. */
  const checkOwner = async (): Promise<void> => {
    const leases = options.leases;
    if (!leases || streamId === STANDALONE_STREAM_ID) return;
    const owner = await leases.streamOwner(link.key, streamId);
    if (!owner || (await leases.isAlive(owner.instanceId))) {
      lostPolls = 0;
      return;
    }
    lostPolls += 1;
    if (lostPolls < LOST_AFTER_POLLS || (await store.isStreamComplete?.(streamId))) return;
    for (const id of owner.requestIds) {
      if (answered.has(id)) continue;
      await store.storeEvent(streamId, {
        jsonrpc: '2.0',
        id,
        error: { code: -32603, message: LOST_INSTANCE_MESSAGE },
      });
    }
  };
  const wake = () => {
    if (closed) return;
    if (running) {
      again = true;
      return;
    }
    running = pump()
      .catch((error: unknown) => {
        options.onError(error);
        // The client resumes from the last event it got.
        response.destroy();
      })
      .finally(() => (running = undefined));
  };
  const stopFollowing = await link.follow(streamId, wake);
  const poll = setInterval(() => {
    if (closed) return;
    void checkOwner()
      .catch((error: unknown) => options.onError(error))
      .finally(wake);
  }, POLL_INTERVAL_MS);
  poll.unref();
  const keepAlive = setInterval(() => {
    if (!closed) response.write(': keepalive\n\n');
  }, KEEP_ALIVE_MS);
  keepAlive.unref();
  response.once('close', () => {
    stopFollowing();
    clearInterval(poll);
    clearInterval(keepAlive);
  });
  wake();
}

function isResponse(message: Record<string, unknown>): boolean {
  return (
    message.method === undefined &&
    (typeof message.id === 'string' || typeof message.id === 'number') &&
    (message.result !== undefined || message.error !== undefined)
  );
}
