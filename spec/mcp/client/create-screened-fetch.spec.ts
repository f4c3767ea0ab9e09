import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createScreenedFetch } from '../../../lib/mcp/client/create-screened-fetch';
import { McpMessageScreen } from '../../../lib/mcp/client/mcp-message-screen';

const BATCH = [
  { jsonrpc: '2.0', id: 1, result: {} },
  { jsonrpc: '2.0', id: 2, result: [] },
  { jsonrpc: '2.0', id: 's', method: 'ping', params: { _meta: { a: { b: { c: {} } } } } },
];

describe('createScreenedFetch', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/text')
        return void response.writeHead(200, { 'content-type': 'text/plain' }).end(JSON.stringify(BATCH));
      response
        .writeHead(200, { 'content-type': 'application/json; charset=utf-8' })
        .end(JSON.stringify(BATCH));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const open = (replies: JSONRPCMessage[], path = '/mcp') =>
    createScreenedFetch(
      new McpMessageScreen({ serverName: 'srv', maxDepth: 3 }),
      (message) => replies.push(message),
      new URL(`${base}${path}`),
      fetch,
    );

  it('screens each message of a JSON batch from the endpoint: refused answers replaced, refused requests answered', async () => {
    const replies: JSONRPCMessage[] = [];
    const body = (await (await open(replies)(`${base}/mcp`, { method: 'POST' })).json()) as JSONRPCMessage[];
    expect(body).toHaveLength(2);
    expect(body[0]).toEqual(BATCH[0]);
    expect(body[1]).toMatchObject({ id: 2, error: { code: -32603 } });
    expect((body[1] as { error: { message: string } }).error.message).toMatch(
      /^MCP server 'srv' answered request 2 with an answer that is not a valid JSON-RPC message/,
    );
    expect(replies).toEqual([
      {
        jsonrpc: '2.0',
        id: 's',
        error: {
          code: -32600,
          message: 'The client refused a request nested deeper than 3 levels (maxMessageDepth).',
        },
      },
    ]);
  });

  it('leaves responses from other URLs and other content types untouched', async () => {
    const replies: JSONRPCMessage[] = [];
    expect(await (await open(replies)(`${base}/.well-known/oauth-authorization-server`)).json()).toEqual(
      BATCH,
    );
    expect(await (await open(replies)(`${base}/mcp/deeper`)).json()).toEqual(BATCH);
    expect(await (await open(replies, '/text')(`${base}/text`)).text()).toBe(JSON.stringify(BATCH));
    expect(replies).toEqual([]);
  });
});
