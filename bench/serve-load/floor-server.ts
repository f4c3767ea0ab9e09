import { createServer } from 'node:http';
import type { Server } from 'node:http';

/**
 * The floor: a bare `node:http` server that reads the JSON-RPC body, adds `a` and `b` of a `tools/call`
 * and answers the sum as a JSON-RPC result shaped like an MCP tool result (so every server is checked the
 * same way). No protocol checks, no sessions, no validation: the cheapest thing that does the same work.
 * `beforeAnswer` (the scale-out floor) runs first: what a server sharing its state cannot avoid, one round
 * trip to that state per request.
 */
export function createFloorServer(beforeAnswer?: (sessionId: string | undefined) => Promise<void>): Server {
  return createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      let message: { id?: unknown; method?: unknown; params?: { arguments?: { a?: unknown; b?: unknown } } };
      try {
        message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof message;
      } catch {
        response.writeHead(400, { 'content-type': 'application/json' });
        response.end('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}');
        return;
      }
      const args = message.params?.arguments;
      if (message.method !== 'tools/call' || typeof args?.a !== 'number' || typeof args.b !== 'number') {
        response.writeHead(400, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: message.id ?? null,
            error: { code: -32602, message: 'add(a, b) only' },
          }),
        );
        return;
      }
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: message.id,
        result: { content: [{ type: 'text', text: String(args.a + args.b) }] },
      });
      const answer = () => {
        response.writeHead(200, {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        });
        response.end(body);
      };
      if (!beforeAnswer) return answer();
      const sessionId = request.headers['mcp-session-id'];
      beforeAnswer(typeof sessionId === 'string' ? sessionId : undefined).then(answer, (error: unknown) => {
        response.writeHead(503, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: message.id ?? null,
            error: { code: -32603, message: String(error) },
          }),
        );
      });
    });
  });
}
