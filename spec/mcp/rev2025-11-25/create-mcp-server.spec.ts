import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolResultSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { RunContext } from '../../../lib/runtime/run-context';
import { createMcpServer, TOO_MANY_CALLS_ERROR_CODE } from '../../../lib/mcp/rev2025-11-25/create-mcp-server';
import type { McpServerOptions } from '../../../lib/mcp/rev2025-11-25/create-mcp-server';
import { ERROR_META_KEY } from '../../../lib/mcp/wire/to-call-tool-result';
import { createFakeAgent } from '../../fixtures/serve/fake-agent';

async function connect(options: McpServerOptions = {}) {
  const agent = createFakeAgent();
  const server = createMcpServer(agent, options);
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: 'spec-client', version: '1.0.0' });
  await client.connect(clientTransport);
  const call = async (name: string, args: Record<string, unknown> = {}, signal?: AbortSignal) =>
    (await client.callTool({ name, arguments: args }, CallToolResultSchema, { signal })) as CallToolResult;
  return { agent, server, client, call, close: () => client.close() };
}

function waitFor(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const poll = () => {
      if (check()) resolve();
      else if (Date.now() - started > timeoutMs) reject(new RangeError('condition not reached in time'));
      else setTimeout(poll, 5);
    };
    poll();
  });
}

describe('createMcpServer', () => {
  describe('tools/list', () => {
    it('lists every tool with its description, object input schema, object output schema and annotations', async () => {
      const session = await connect();
      const { tools } = await session.client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual([
        'add',
        'echo',
        'book',
        'slow',
        'crash',
        'fail',
        'delete_records',
      ]);
      const add = tools.find((tool) => tool.name === 'add')!;
      expect(add.description).toBe('Add two integers');
      expect(add.inputSchema).toMatchObject({
        type: 'object',
        properties: { a: { type: 'integer' }, b: { type: 'integer' } },
        required: ['a', 'b'],
        additionalProperties: false,
      });
      expect(add.outputSchema).toBeUndefined();
      expect(add.annotations).toEqual({ readOnlyHint: true });
      const book = tools.find((tool) => tool.name === 'book')!;
      expect(book.outputSchema).toMatchObject({ type: 'object', required: ['id', 'city', 'guests'] });
      expect(book.annotations).toEqual({ destructiveHint: false, idempotentHint: false });
      expect(tools.find((tool) => tool.name === 'crash')!.inputSchema).toMatchObject({
        type: 'object',
        properties: {},
      });
      await session.close();
    });

    it('reads the tools live when the agent gains a tool after the server was built', async () => {
      const session = await connect();
      const tools = session.agent.tools as Map<string, unknown>;
      tools.set('later', { ...tools.get('echo')!, name: 'later' } as never);
      const { tools: listed } = await session.client.listTools();
      expect(listed.map((tool) => tool.name)).toContain('later');
      await session.close();
    });
  });

  describe('tools/call', () => {
    it('returns text for a scalar and structuredContent plus JSON text for an object', async () => {
      const session = await connect();
      expect(await session.call('add', { a: 1, b: '2' })).toEqual({
        content: [{ type: 'text', text: '3' }],
        structuredContent: { result: 3 },
      });
      expect(await session.call('echo', { text: 'hi' })).toEqual({ content: [{ type: 'text', text: 'hi' }] });
      const booked = await session.call('book', { city: 'Athens', guests: 2 });
      expect(booked.structuredContent).toEqual({ id: 'BK-1', city: 'Athens', guests: 2 });
      expect(JSON.parse((booked.content[0] as { text: string }).text)).toEqual(booked.structuredContent);
      expect(booked.isError).toBeUndefined();
      expect(session.agent.log.executed).toEqual(['add', 'echo', 'book']);
      await session.close();
    });

    it('runs the call through callToolInContext with a RunContext carrying the request signal', async () => {
      const session = await connect();
      await session.call('add', { a: 1, b: 1 });
      const [context] = session.agent.log.contexts;
      expect(context).toBeInstanceOf(RunContext);
      expect(context.signal.aborted).toBe(false);
      await session.close();
    });

    it('uses buildContext when given, passing the tool name, session and signal', async () => {
      const seen: string[] = [];
      const session = await connect({
        buildContext: (info) => {
          seen.push(`${info.toolName}:${info.transport}:${info.sessionId}`);
          return new RunContext({ signal: info.signal, metadata: { origin: 'spec' } });
        },
      });
      await session.call('add', { a: 1, b: 1 });
      expect(seen).toEqual(['add:http:null']);
      expect(session.agent.log.contexts[0].metadata).toEqual({ origin: 'spec' });
      await session.close();
    });

    it('answers invalid arguments with an isError result naming the problem, and runs nothing', async () => {
      const session = await connect();
      const result = await session.call('add', { a: 'one', b: 2, extra: true });
      expect(result.isError).toBe(true);
      const text = (result.content[0] as { text: string }).text;
      expect(text).toMatch(/add/);
      expect(text).toMatch(/\ba\b/);
      expect(result._meta?.[ERROR_META_KEY]).toMatchObject({
        name: 'ToolValidationError',
        code: 'TOOL_VALIDATION',
      });
      expect(session.agent.log.executed).toEqual([]);
      await session.close();
    });

    it('answers an unknown tool with the JSON-RPC error -32602 listing the tools, and runs nothing', async () => {
      const session = await connect();
      const error = await session.call('nope').catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(McpError);
      expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
      expect((error as McpError).message).toMatch(/Unknown tool: nope/);
      expect((error as McpError).data).toEqual({
        availableTools: ['add', 'book', 'crash', 'delete_records', 'echo', 'fail', 'slow'],
      });
      expect(session.agent.log.executed).toEqual([]);
      await session.close();
    });

    it('answers a policy denial with an isError result carrying the ActionDeniedError', async () => {
      const session = await connect();
      const result = await session.call('delete_records');
      expect(result.isError).toBe(true);
      expect((result.content[0] as { text: string }).text).toMatch(/denied by policy/);
      expect(result._meta?.[ERROR_META_KEY]).toMatchObject({
        name: 'ActionDeniedError',
        code: 'ACTION_DENIED',
        toolName: 'delete_records',
      });
      expect(session.agent.log.executed).toEqual([]);
      await session.close();
    });

    it('sends a Protolink error message but never the message or stack of any other error', async () => {
      const reported: unknown[] = [];
      const session = await connect({ onError: (error) => reported.push(error) });
      const failed = await session.call('fail');
      expect(failed.isError).toBe(true);
      expect((failed.content[0] as { text: string }).text).toBe('the provider answered 503; retry later');
      expect(failed._meta?.[ERROR_META_KEY]).toEqual({
        name: 'ToolRuntimeError',
        code: 'TOOL_RUNTIME',
        message: 'the provider answered 503; retry later',
        toolName: 'fail',
        retryable: false,
      });
      const crashed = await session.call('crash');
      const serialized = JSON.stringify(crashed);
      expect(crashed.isError).toBe(true);
      expect((crashed.content[0] as { text: string }).text).toBe(
        "Tool 'crash' failed with an internal error; the server's log has the details.",
      );
      expect(serialized).not.toMatch(/secret|\/srv|at |TypeError/);
      expect(reported).toHaveLength(1);
      expect((reported[0] as Error).message).toMatch(/secret internal detail/);
      await session.close();
    });

    it('aborts the running tool when the client cancels the request', async () => {
      const session = await connect();
      const controller = new AbortController();
      const pending = session.call('slow', {}, controller.signal);
      await waitFor(() => session.agent.log.executed.includes('slow'));
      controller.abort('user pressed stop');
      await expect(pending).rejects.toThrow(/user pressed stop|abort/i);
      await waitFor(() => session.agent.log.aborted.includes('slow'));
      expect(session.agent.log.contexts[0].canceled).toBe(true);
      expect(await session.call('add', { a: 2, b: 3 })).toEqual({
        content: [{ type: 'text', text: '5' }],
        structuredContent: { result: 5 },
      });
      await session.close();
    });

    it('refuses calls beyond maxConcurrentCalls with the JSON-RPC error -32029 and runs nothing more', async () => {
      const session = await connect({ maxConcurrentCalls: 1 });
      const controller = new AbortController();
      const pending = session.call('slow', {}, controller.signal).catch(() => 'canceled');
      await waitFor(() => session.agent.log.executed.includes('slow'));
      const refused = await session.call('add', { a: 1, b: 2 }).catch((caught: unknown) => caught);
      expect(refused).toBeInstanceOf(McpError);
      expect((refused as McpError).code).toBe(TOO_MANY_CALLS_ERROR_CODE);
      expect((refused as McpError).message).toMatch(
        /Too many concurrent tool calls in this session \(limit 1\)/,
      );
      expect(session.agent.log.executed).toEqual(['slow']);
      controller.abort();
      await pending;
      await waitFor(() => session.agent.log.aborted.includes('slow'));
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(await session.call('add', { a: 1, b: 2 })).toEqual({
        content: [{ type: 'text', text: '3' }],
        structuredContent: { result: 3 },
      });
      await session.close();
    });
  });

  describe('other methods', () => {
    it('answers a method the server does not offer with -32601', async () => {
      const session = await connect();
      const error = await session.client.listPrompts().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(McpError);
      expect((error as McpError).code).toBe(ErrorCode.MethodNotFound);
      await session.close();
    });

    it('reports the card name, version and description at initialize', async () => {
      const session = await connect();
      expect(session.client.getServerVersion()).toEqual({ name: 'fixture-agent', version: '1.2.3' });
      expect(session.client.getInstructions()).toBe('A fixture agent for serving tests');
      await session.close();
    });
  });
});
