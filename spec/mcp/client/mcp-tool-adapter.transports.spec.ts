import 'reflect-metadata';
import { MCPToolAdapter } from '../../../lib/mcp/client';
import type { MCPToolAdapterOptions } from '../../../lib/mcp/client';
import { ToolCancelledError } from '../../../lib/errors/tool-cancelled-error';
import { ToolRuntimeError } from '../../../lib/errors/tool-runtime-error';
import { everythingStdio, sampleServerStdio, startHttpServer } from '../../fixtures/mcp/mcp-test-servers';
import type { RunningHttpServer } from '../../fixtures/mcp/mcp-test-servers';

jest.setTimeout(60_000);

describe('MCPToolAdapter', () => {
  describe('against @modelcontextprotocol/server-everything', () => {
    const servers: RunningHttpServer[] = [];
    const adapters: MCPToolAdapter[] = [];
    const transports: Array<[string, () => Promise<MCPToolAdapterOptions>]> = [
      ['stdio', async () => everythingStdio()],
      [
        'sse',
        async () => ({
          transport: 'sse',
          url: (await start('everything-sse')).url,
          headers: { authorization: 'Bearer secret-token' },
        }),
      ],
      [
        'http',
        async () => ({
          transport: 'http',
          url: (await start('everything-http')).url,
          headers: { authorization: 'Bearer secret-token' },
        }),
      ],
    ];
    const start = async (kind: 'everything-sse' | 'everything-http') => {
      const server = await startHttpServer(kind);
      servers.push(server);
      return server;
    };

    afterAll(async () => {
      await Promise.all(adapters.map((adapter) => adapter.close()));
      await Promise.all(servers.map((server) => server.stop()));
    });

    describe.each(transports)('over %s', (transport, makeOptions) => {
      let adapter: MCPToolAdapter;
      beforeAll(async () => {
        adapter = new MCPToolAdapter({ ...(await makeOptions()), serverName: `everything-${transport}` });
        adapters.push(adapter);
      });

      it('discovers the tools with their schemas and hints', async () => {
        const tools = await adapter.getTools();
        const names = tools.map((tool) => tool.name);
        expect(names).toEqual(
          expect.arrayContaining([
            'echo',
            'get-sum',
            'get-structured-content',
            'trigger-long-running-operation',
          ]),
        );
        const sum = tools.find((tool) => tool.name === 'get-sum');
        expect(sum?.inputSchema).toMatchObject({
          type: 'object',
          properties: { a: { type: 'number' }, b: { type: 'number' } },
        });
        expect(sum?.tags).toEqual(['mcp']);
        const structured = tools.find((tool) => tool.name === 'get-structured-content');
        expect(structured?.metadata.annotations).toMatchObject({ readOnlyHint: true });
        expect(structured?.outputSchema).toMatchObject({
          type: 'object',
          properties: { temperature: { type: 'number' } },
        });
        expect(JSON.stringify(structured?.metadata)).not.toContain('secret-token');
        if (transport !== 'stdio')
          expect(structured?.metadata.mcp).toMatchObject({ headerNames: ['authorization'], transport });
      });

      it('calls tools and returns text or structured content', async () => {
        expect(await adapter.getCallable('echo')({ message: 'hello' })).toBe('Echo: hello');
        expect(await adapter.getCallable('get-sum')({ a: 2, b: '3' })).toBe('The sum of 2 and 3 is 5.');
        expect(await adapter.getCallable('get-structured-content')({ location: 'Chicago' })).toMatchObject({
          temperature: expect.any(Number),
        });
      });

      it('cancels a long-running tool at once', async () => {
        const controller = new AbortController();
        const pending = adapter.getCallable('trigger-long-running-operation')(
          { duration: 30, steps: 30 },
          { signal: controller.signal },
        );
        setTimeout(() => controller.abort(), 200);
        const error = await pending.catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(ToolCancelledError);
        expect((error as Error).message).toMatch(
          /^The call of MCP tool 'trigger-long-running-operation' on server 'everything-/,
        );
        expect(await adapter.getCallable('echo')({ message: 'after' })).toBe('Echo: after');
      });
    });
  });

  describe('against the sample server (samples/05-mcp/server.ts)', () => {
    const adapter = new MCPToolAdapter(sampleServerStdio());
    afterAll(() => adapter.close());

    it('calls add, multiply, greet and the structured stats tool over stdio', async () => {
      expect((await adapter.listTools()).map((tool) => tool.name)).toEqual([
        'add',
        'multiply',
        'greet',
        'stats',
        'fail',
      ]);
      expect(await adapter.getCallable('add')({ a: 5, b: 7 })).toBe('12');
      expect(await adapter.getCallable('multiply')({ a: 1.5, b: 4 })).toBe('6');
      expect(await adapter.getCallable('greet')({ name: 'Ada' })).toBe('Hello, Ada!');
      expect(await adapter.getCallable('stats')({ numbers: [1, 2, 3, 6] })).toEqual({
        count: 4,
        sum: 12,
        mean: 3,
      });
    });

    it('reports the failing tool with its text, and validates before sending', async () => {
      await expect(adapter.getCallable('fail')({ reason: 'on purpose' })).rejects.toThrow(
        "MCP tool 'fail' on server 'sample' returned an error: The sample tool failed: on purpose",
      );
      await expect(adapter.getCallable('greet')({ name: '' })).rejects.toThrow(
        "Invalid arguments for tool 'greet'",
      );
    });
  });

  describe('over SSE when the server restarts', () => {
    let server: RunningHttpServer;
    let adapter: MCPToolAdapter;
    beforeAll(async () => {
      server = await startHttpServer('everything-sse');
      adapter = new MCPToolAdapter({ transport: 'sse', url: server.url, serverName: 'everything-sse' });
    });
    afterAll(async () => {
      await adapter.close();
      await server.stop();
    });

    it('opens a new session after the event stream broke', async () => {
      expect(await adapter.getCallable('echo')({ message: 'before' })).toBe('Echo: before');
      await server.restart();
      let result: unknown;
      for (let attempt = 0; attempt < 3 && result === undefined; attempt += 1) {
        result = await adapter
          .getCallable('echo')({ message: 'after' })
          .catch((error: unknown) => {
            expect(error).toBeInstanceOf(ToolRuntimeError);
            expect((error as Error).message).toMatch(/everything-sse/);
            return undefined;
          });
      }
      expect(result).toBe('Echo: after');
    });
  });

  describe('over streamable HTTP when the server restarts', () => {
    let server: RunningHttpServer;
    let adapter: MCPToolAdapter;
    beforeAll(async () => {
      server = await startHttpServer('test');
      adapter = new MCPToolAdapter({ transport: 'http', url: server.url, serverName: 'test-http' });
    });
    afterAll(async () => {
      await adapter.close();
      await server.stop();
    });

    it('opens a new session once after the old one expired (HTTP 404)', async () => {
      expect(await adapter.getCallable('add')({ a: 1, b: 2 })).toBe('3');
      await server.restart();
      expect(await adapter.getCallable('add')({ a: 2, b: 2 })).toBe('4');
      expect(await adapter.getCallable('call_count')()).toBe('1');
      await server.restart();
      expect((await adapter.listTools({ refresh: true })).map((tool) => tool.name)).toContain('add');
    });

    it('fails with a ToolRuntimeError naming the server when it is gone', async () => {
      await server.stop();
      const error = await adapter
        .getCallable('add')({ a: 1, b: 1 })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolRuntimeError);
      expect((error as Error).message).toMatch(/test-http/);
      await server.restart();
      expect(await adapter.getCallable('add')({ a: 1, b: 1 })).toBe('2');
    });
  });
});
