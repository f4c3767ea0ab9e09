import type { ServerResponse } from 'node:http';
import type { ResumableEventStore } from '../../state/resumable-event-store';

/**
 * Answers the resume of a complete stream (its final response is stored) with the stream's events after
 * `lastEventId`, in the SSE form of the SDK's transport, then ends the response: nothing more will ever be
 * sent on that stream, so holding it open would only tie up a connection. Resolves false, sending nothing,
 * when the store no longer holds `lastEventId` (it expired since it was looked up).
 */
export async function sendStoredReplay(
  store: ResumableEventStore,
  lastEventId: string,
  sessionId: string,
  response: ServerResponse,
): Promise<boolean> {
  let closed = false;
  response.once('close', () => (closed = true));
  const writeHead = () => {
    if (response.headersSent) return;
    response.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
      'mcp-session-id': sessionId,
    });
  };
  try {
    await store.replayEventsAfter(lastEventId, {
      send: async (eventId, message) => {
        if (closed) return;
        writeHead();
        const written = response.write(
          `event: message\nid: ${eventId}\ndata: ${JSON.stringify(message)}\n\n`,
        );
        if (!written) await drained(response);
      },
    });
  } catch {
    if (!response.headersSent) return false;
    // Part of the replay went out: cut the stream; the client resumes from the last id it received.
    response.destroy();
    return true;
  }
  writeHead();
  response.end();
  return true;
}

function drained(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.once('drain', done);
    response.once('close', done);
  });
}
