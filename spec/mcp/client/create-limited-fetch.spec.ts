import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { ToolRuntimeError } from '../../../lib/errors/tool-runtime-error';
import { createLimitedFetch } from '../../../lib/mcp/client/create-limited-fetch';

describe('createLimitedFetch', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/json') {
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ data: 'x'.repeat(5_000) }));
      } else if (request.url === '/events') {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        for (let index = 0; index < 50; index += 1) response.write(`data: ${'e'.repeat(500)}\n\n`);
        response.end(`data: ${'big'.repeat(1_000)}\n\n`);
      } else {
        response.writeHead(204).end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('passes bodies within the bound and bodiless responses unchanged', async () => {
    const limited = createLimitedFetch(10_000, () => undefined);
    expect(((await (await limited(`${base}/json`)).json()) as { data: string }).data).toHaveLength(5_000);
    expect((await limited(`${base}/empty`)).status).toBe(204);
  });

  it('errors a JSON body over the bound and reports it', async () => {
    const overflows: ToolRuntimeError[] = [];
    const limited = createLimitedFetch(1_000, (error) => overflows.push(error));
    await expect((await limited(`${base}/json`)).text()).rejects.toThrow(
      'The MCP server sent a message larger than 1000 bytes; it was refused.',
    );
    expect(overflows[0]).toBeInstanceOf(ToolRuntimeError);
  });

  it('bounds an event stream per event, not in total', async () => {
    const overflows: ToolRuntimeError[] = [];
    const limited = createLimitedFetch(2_000, (error) => overflows.push(error));
    const response = await limited(`${base}/events`);
    await expect(response.text()).rejects.toThrow('larger than 2000 bytes');
    expect(overflows).toHaveLength(1);
    const roomy = createLimitedFetch(4_000, () => undefined);
    expect(await (await roomy(`${base}/events`)).text()).toContain('bigbig');
  });
});
