import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { SessionStoreDataError } from '../../errors/session-store-data-error';
import type { SessionRecord } from '../../state/session-store';

const ACCEPT = 'application/json, text/event-stream';

/**
 * Brings a fresh transport (and the SDK server connected to it) into the state of a session another process
 * opened: replays the session's `initialize` from its stored record through the transport's public
 * `handleRequest`, on a request and response that never touch a socket, so the transport takes the session
 * id and the server learns the client's capabilities, info and protocol version exactly as at the first
 * `initialize`. The transport must generate `record.sessionId` as its session id.
 *
 * @throws SessionStoreDataError when the transport did not take the session (its answer was not a 200).
 */
export async function primeSessionReplica(
  transport: StreamableHTTPServerTransport,
  record: SessionRecord,
): Promise<void> {
  const request = new IncomingMessage(new Socket());
  request.method = 'POST';
  request.url = '/mcp';
  request.headers = { accept: ACCEPT, 'content-type': 'application/json', host: 'localhost' };
  request.rawHeaders = ['accept', ACCEPT, 'content-type', 'application/json', 'host', 'localhost'];
  request.push(null);
  const response = new SinkResponse(request);
  await transport.handleRequest(request, response, {
    jsonrpc: '2.0',
    // Never seen by the client: the id only pairs this request with its (discarded) answer.
    id: '_protolink_replica',
    method: 'initialize',
    params: {
      protocolVersion: record.protocolVersion,
      capabilities: record.clientCapabilities,
      clientInfo: record.clientInfo,
    },
  });
  if (response.statusCode !== 200 || transport.sessionId !== record.sessionId) {
    throw new SessionStoreDataError({
      sessionId: record.sessionId,
      reason: `a record the server refused to rebuild the session from (initialize answered ${response.statusCode})`,
    });
  }
}

/** A response that keeps nothing: the replayed initialize's answer is for no one. */
class SinkResponse extends ServerResponse {
  override write(_chunk: unknown, ...rest: unknown[]): boolean {
    const callback = rest.find((value) => typeof value === 'function') as (() => void) | undefined;
    callback?.();
    return true;
  }

  override end(...args: unknown[]): this {
    const callback = args.find((value) => typeof value === 'function') as (() => void) | undefined;
    if (!this.headersSent) this.writeHead(this.statusCode);
    callback?.();
    this.emit('finish');
    this.emit('close');
    return this;
  }
}
