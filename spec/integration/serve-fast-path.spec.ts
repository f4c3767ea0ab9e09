import 'reflect-metadata';
import { request as httpRequest } from 'node:http';
import { Agent } from '../../lib/agents/agent';
import { ToolCancelledError } from '../../lib/errors/tool-cancelled-error';
import { RunContext } from '../../lib/runtime/run-context';
import type { AgentServerHandle, AgentServerOptions } from '../../lib/agents/agent-server-options';
import * as createMcpServerModule from '../../lib/mcp/rev2025-11-25/create-mcp-server';
import { startAgentServer } from '../../lib/server/start-agent-server';
import { NativeTool } from '../../lib/tools/native-tool';
import { ToolResult } from '../../lib/tools/tool-result';
import { callBody, MCP_HEADERS, openRawSession, rawRequest, waitFor } from '../fixtures/serve/http-helpers';
import type { RawResponse } from '../fixtures/serve/http-helpers';

// The lean request path of /mcp: one tools/list or tools/call of a tool that cannot stream is answered without
// an SDK server or transport, with the same results, errors, gates and cancellation as the SDK path; anything
// else (progress tokens, tools that read their context, clients able to answer questions, odd headers) still
// goes through the SDK. A fast answer is JSON (the SDK path here answers with SSE), which tells them apart.

/** A tool whose calls wait until the test releases them. */
interface Gate {
  release(): void;
  readonly waiting: number;
}

function buildAgent() {
  const signals: AbortSignal[] = [];
  const errors: Array<[string, string | undefined]> = [];
  let waiting = 0;
  let releaseAll: () => void = () => undefined;
  let released = new Promise<void>((resolve) => (releaseAll = resolve));
  const gate: Gate = {
    release: () => {
      releaseAll();
      released = new Promise<void>((resolve) => (releaseAll = resolve));
    },
    get waiting() {
      return waiting;
    },
  };
  const agent = new Agent({ card: { name: 'fast', description: 'Fast path', url: 'http://127.0.0.1:0' } });
  agent.addTool(
    new NativeTool({
      name: 'add',
      description: 'Add two integers',
      inputSchema: { a: 'int', b: 'int' },
      func: ({ a, b }) => (a as number) + (b as number),
    }),
  );
  agent.addTool(
    new NativeTool({
      name: 'hold',
      description: 'Waits until released',
      inputSchema: {},
      func: async () => {
        waiting += 1;
        try {
          await released;
        } finally {
          waiting -= 1;
        }
        return 'released';
      },
    }),
  );
  agent.addTool(
    new NativeTool({
      name: 'crash',
      description: 'Fails with an internal error',
      inputSchema: {},
      func: () => {
        throw new Error('database password is hunter2');
      },
    }),
  );
  agent.addTool(
    new NativeTool({
      name: 'picture',
      description: 'Returns an image and structured data',
      inputSchema: { data: 'str' },
      func: ({ data }) => ToolResult.of(ToolResult.image(data as string, 'image/png'), 'a picture'),
    }),
  );
  agent.addTool(
    new NativeTool({
      name: 'chatty',
      description: 'Logs through its context',
      inputSchema: {},
      func: async (_args, context) => {
        await context.log('info', 'working');
        return 'done';
      },
    }),
  );
  const options: AgentServerOptions = {
    buildContext: (info) => {
      signals.push(info.signal);
      return new RunContext({ signal: info.signal, sessionId: info.sessionId });
    },
    onError: (error, toolName) => errors.push([(error as Error).message, toolName]),
  };
  return { agent, gate, signals, errors, options };
}

describe('Served /mcp fast path for tools/call and tools/list', () => {
  let handle: AgentServerHandle | undefined;
  afterEach(async () => {
    jest.restoreAllMocks();
    await handle?.close();
    handle = undefined;
  });

  async function serve(extra: AgentServerOptions = {}) {
    const built = buildAgent();
    handle = await startAgentServer(built.agent, { ...built.options, ...extra });
    return { ...built, port: handle.port };
  }

  function post(port: number, body: string, headers: Record<string, string> = {}): Promise<RawResponse> {
    return rawRequest({ port, headers: { ...MCP_HEADERS, ...headers }, body });
  }

  /** A POST left open (without reading its answer), for tests that then drop the connection. */
  function openPost(port: number, body: string, headers: Record<string, string> = {}) {
    const request = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/mcp',
      agent: false,
      headers: {
        ...MCP_HEADERS,
        ...headers,
        host: `127.0.0.1:${port}`,
        'content-length': Buffer.byteLength(body),
      },
    });
    request.on('error', () => undefined);
    request.end(body);
    return request;
  }

  describe('stateless', () => {
    it('answers a tools/call with JSON and builds no SDK server', async () => {
      const { port } = await serve({ sessionMode: 'stateless' });
      const built = jest.spyOn(createMcpServerModule, 'createSessionMcpServer');
      const response = await post(port, callBody('add', { a: 2, b: 3 }, 7));
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('application/json');
      expect(JSON.parse(response.body)).toEqual({
        result: { content: [{ type: 'text', text: '5' }], structuredContent: { result: 5 } },
        jsonrpc: '2.0',
        id: 7,
      });
      expect(built).not.toHaveBeenCalled();
    });

    it('gives the same results and errors as the SDK path (forced with a progress token)', async () => {
      const { port } = await serve({ sessionMode: 'stateless' });
      const built = jest.spyOn(createMcpServerModule, 'createSessionMcpServer');
      const cases: Array<[string, Record<string, unknown>]> = [
        ['add', { a: 1, b: 2 }],
        ['add', { a: 'x', b: 2 }],
        ['crash', {}],
        ['nope', {}],
        // Not plain text: the result goes through the SDK's result schema on both paths.
        ['picture', { data: 'iVBORw0KGgo=' }],
        ['picture', { data: 'not base64 at all!' }],
      ];
      for (const [name, args] of cases) {
        const fast = await post(port, callBody(name, args, 3));
        const viaSdk = await post(
          port,
          JSON.stringify({
            jsonrpc: '2.0',
            id: 3,
            method: 'tools/call',
            params: { name, arguments: args, _meta: { progressToken: 'p' } },
          }),
        );
        expect(fast.headers['content-type']).toBe('application/json');
        expect(viaSdk.headers['content-type']).toBe('text/event-stream');
        expect(fast.json).toEqual(viaSdk.json);
      }
      expect(built).toHaveBeenCalledTimes(cases.length);
      const unknown = await post(port, callBody('nope', {}, 4));
      expect(unknown.json.error).toEqual({
        code: -32602,
        message: 'MCP error -32602: Unknown tool: nope',
        data: { availableTools: ['add', 'chatty', 'crash', 'hold', 'picture'] },
      });
    });

    it('refuses a result the SDK schema rejects with the same -32602 as the SDK path', async () => {
      // An agent from another copy of the package (a structural ServableAgent) whose rich result is malformed.
      const tool = new NativeTool({ name: 'odd', description: 'Odd', inputSchema: {}, func: () => 1 });
      const malformed = {
        [Symbol.for('protolink:tool-result')]: true,
        content: [],
        toJSON: () => ({ content: [{ type: 'image', data: 42 }] }),
      };
      handle = await startAgentServer(
        {
          card: { name: 'odd', url: 'http://127.0.0.1:0' },
          tools: new Map([['odd', tool]]),
          callToolInContext: async () => malformed,
        },
        { sessionMode: 'stateless' },
      );
      const fast = await post(handle.port, callBody('odd', {}, 6));
      const viaSdk = await post(
        handle.port,
        JSON.stringify({
          jsonrpc: '2.0',
          id: 6,
          method: 'tools/call',
          params: { name: 'odd', arguments: {}, _meta: { progressToken: 'p' } },
        }),
      );
      expect(fast.headers['content-type']).toBe('application/json');
      expect(fast.json.error.code).toBe(-32602);
      expect(fast.json.error.message).toMatch(/^MCP error -32602: Invalid tools\/call result: /);
      expect(fast.json).toEqual(viaSdk.json);
    });

    it('redacts internal failures and tells onError which tool failed', async () => {
      const { port, errors } = await serve({ sessionMode: 'stateless' });
      const response = await post(port, callBody('crash', {}));
      expect(response.headers['content-type']).toBe('application/json');
      expect(response.json.result.isError).toBe(true);
      expect(response.body).not.toContain('hunter2');
      expect(errors).toEqual([['database password is hunter2', 'crash']]);
    });

    it('answers tools/list like the SDK path', async () => {
      const { port } = await serve({ sessionMode: 'stateless' });
      const fast = await post(port, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
      const viaSdk = await post(
        port,
        JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: {} } }),
      );
      expect(fast.headers['content-type']).toBe('application/json');
      expect(viaSdk.headers['content-type']).toBe('text/event-stream');
      expect(fast.json).toEqual(viaSdk.json);
      expect(fast.json.result.tools.map((tool: { name: string }) => tool.name)).toEqual([
        'add',
        'hold',
        'crash',
        'picture',
        'chatty',
      ]);
    });

    it('answers a tools/list that fails like the SDK path (-32603)', async () => {
      const { port, agent } = await serve({ sessionMode: 'stateless' });
      let broken = false;
      const tool = new NativeTool({ name: 'odd', description: 'Odd', inputSchema: {}, func: () => 1 });
      agent.addTool(tool);
      const schema = tool.inputSchema;
      Object.defineProperty(tool, 'inputSchema', {
        get: () => {
          if (broken) throw new TypeError('schema store unavailable');
          return schema;
        },
      });
      broken = true;
      const fast = await post(port, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
      const viaSdk = await post(
        port,
        JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: {} } }),
      );
      expect(fast.headers['content-type']).toBe('application/json');
      expect(fast.json).toEqual({
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32603, message: 'schema store unavailable' },
      });
      expect(fast.json).toEqual(viaSdk.json);
    });

    it('writes one SSE message event to a client that refuses JSON', async () => {
      const { port } = await serve({ sessionMode: 'stateless' });
      const response = await post(port, callBody('add', { a: 2, b: 2 }, 9), {
        accept: 'application/json;q=0, text/event-stream',
      });
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('text/event-stream');
      expect(response.body).toBe(
        `event: message\ndata: ${JSON.stringify({
          result: { content: [{ type: 'text', text: '4' }], structuredContent: { result: 4 } },
          jsonrpc: '2.0',
          id: 9,
        })}\n\n`,
      );
    });

    it.each([
      ['an Accept without text/event-stream', { accept: 'application/json' }, 406, -32000],
      ['an Accept without application/json', { accept: 'text/event-stream' }, 406, -32000],
      ['a Content-Type that is not JSON', { 'content-type': 'text/plain' }, 415, -32000],
      ['an unsupported MCP-Protocol-Version', { 'mcp-protocol-version': '1999-01-01' }, 400, -32000],
    ])('leaves %s to the SDK, which refuses it', async (_label, headers, status, code) => {
      const { port } = await serve({ sessionMode: 'stateless' });
      const response = await post(port, callBody('add', { a: 1, b: 1 }), headers);
      expect(response.status).toBe(status);
      expect(response.json.error.code).toBe(code);
    });

    it('takes the header variants the SDK accepts: charset, no protocol version', async () => {
      const { port } = await serve({ sessionMode: 'stateless' });
      const response = await rawRequest({
        port,
        headers: {
          'content-type': 'application/json; charset=utf-8',
          accept: 'text/event-stream, application/json',
        },
        body: callBody('add', { a: 1, b: 1 }),
      });
      expect(response.headers['content-type']).toBe('application/json');
      expect(response.json.result.structuredContent).toEqual({ result: 2 });
    });

    it('sends tools that read their context through the SDK', async () => {
      const { port } = await serve({ sessionMode: 'stateless' });
      const built = jest.spyOn(createMcpServerModule, 'createSessionMcpServer');
      const response = await post(port, callBody('chatty', {}));
      expect(response.headers['content-type']).toBe('text/event-stream');
      expect(response.body).toContain('"method":"notifications/message"');
      expect(response.json).toBeDefined();
      expect(built).toHaveBeenCalledTimes(1);
    });

    it('refuses a call over the shared stateless gate with -32029', async () => {
      const { port, gate } = await serve({ sessionMode: 'stateless', maxConcurrentStatelessCalls: 1 });
      const first = post(port, callBody('hold', {}, 1));
      await waitFor(() => gate.waiting === 1);
      const refused = await post(port, callBody('add', { a: 1, b: 1 }, 2));
      expect(refused.headers['content-type']).toBe('application/json');
      expect(refused.json).toEqual({
        jsonrpc: '2.0',
        id: 2,
        error: {
          code: -32029,
          message:
            'MCP error -32029: Too many concurrent tool calls on this server (limit 1); wait for one to finish and retry.',
        },
      });
      gate.release();
      expect((await first).json.result.content).toEqual([{ type: 'text', text: 'released' }]);
      expect((await post(port, callBody('add', { a: 1, b: 1 }, 3))).json.result).toBeDefined();
    });

    it('cancels the call when the client goes away', async () => {
      const { port, gate, signals } = await serve({ sessionMode: 'stateless' });
      const request = openPost(port, callBody('hold', {}));
      await waitFor(() => gate.waiting === 1);
      expect(signals[0].aborted).toBe(false);
      request.destroy();
      await waitFor(() => signals[0].aborted);
      gate.release();
    });
  });

  describe('stateful', () => {
    function sessionPost(port: number, sessionId: string, body: string): Promise<RawResponse> {
      return post(port, body, { 'mcp-session-id': sessionId });
    }

    it('answers calls of an initialized session with JSON and its session id', async () => {
      const { port } = await serve();
      const built = jest.spyOn(createMcpServerModule, 'createSessionMcpServer');
      const sessionId = await openRawSession(port);
      const response = await sessionPost(port, sessionId, callBody('add', { a: 20, b: 22 }, 5));
      expect(response.headers['content-type']).toBe('application/json');
      expect(response.headers['mcp-session-id']).toBe(sessionId);
      expect(response.json).toEqual({
        result: { content: [{ type: 'text', text: '42' }], structuredContent: { result: 42 } },
        jsonrpc: '2.0',
        id: 5,
      });
      expect(built).toHaveBeenCalledTimes(1);
    });

    it('answers an unknown or missing session as before (404, 400)', async () => {
      const { port } = await serve();
      const unknown = await sessionPost(port, 'no-such-session', callBody('add', { a: 1, b: 1 }));
      expect([unknown.status, unknown.json.error.code]).toEqual([404, -32001]);
      const missing = await post(port, callBody('add', { a: 1, b: 1 }));
      expect([missing.status, missing.json.error.code]).toEqual([400, -32000]);
    });

    it('shares the session gate with the SDK path', async () => {
      const { port, gate } = await serve({ maxConcurrentCallsPerSession: 1 });
      const sessionId = await openRawSession(port);
      // The held call takes the SDK path (a progress token), the refused one the fast path.
      const held = sessionPost(
        port,
        sessionId,
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'hold', arguments: {}, _meta: { progressToken: 1 } },
        }),
      );
      await waitFor(() => gate.waiting === 1);
      const refused = await sessionPost(port, sessionId, callBody('add', { a: 1, b: 1 }, 2));
      expect(refused.headers['content-type']).toBe('application/json');
      expect(refused.json.error).toEqual({
        code: -32029,
        message:
          'MCP error -32029: Too many concurrent tool calls in this session (limit 1); wait for one to finish and retry.',
      });
      gate.release();
      expect((await held).json.result.content).toEqual([{ type: 'text', text: 'released' }]);
      // And the other way round: a fast call holds the slot against an SDK-path call.
      const fastHeld = sessionPost(port, sessionId, callBody('hold', {}, 3));
      await waitFor(() => gate.waiting === 1);
      const sdkRefused = await sessionPost(port, sessionId, callBody('chatty', {}, 4));
      expect(sdkRefused.headers['content-type']).toBe('text/event-stream');
      expect(sdkRefused.json.error.code).toBe(-32029);
      gate.release();
      expect((await fastHeld).json.result.content).toEqual([{ type: 'text', text: 'released' }]);
    });

    it('cancels a fast call on notifications/cancelled and releases its POST with 204', async () => {
      const { port, gate, signals } = await serve();
      const sessionId = await openRawSession(port);
      const held = sessionPost(port, sessionId, callBody('hold', {}, 11));
      await waitFor(() => gate.waiting === 1);
      const cancel = await sessionPost(
        port,
        sessionId,
        JSON.stringify({
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: 11, reason: 'user stopped it' },
        }),
      );
      expect(cancel.status).toBe(202);
      const answer = await held;
      expect([answer.status, answer.body]).toEqual([204, '']);
      expect(signals[0].aborted).toBe(true);
      expect(signals[0].reason).toBe('user stopped it');
      gate.release();
    });

    it('cancels the call when the client goes away', async () => {
      const { port, gate, signals } = await serve();
      const sessionId = await openRawSession(port);
      const request = openPost(port, callBody('hold', {}), { 'mcp-session-id': sessionId });
      await waitFor(() => gate.waiting === 1);
      request.destroy();
      await waitFor(() => signals[0].aborted);
      gate.release();
      expect((await sessionPost(port, sessionId, callBody('add', { a: 1, b: 1 }))).json.result).toBeDefined();
    });

    it('keeps a session whose client can answer questions on the SDK path (approval may ask it)', async () => {
      const { port } = await serve();
      const init = await post(
        port,
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: MCP_HEADERS['mcp-protocol-version'],
            capabilities: { elicitation: {} },
            clientInfo: { name: 'asker', version: '1.0.0' },
          },
        }),
      );
      const sessionId = init.headers['mcp-session-id'] as string;
      await sessionPost(
        port,
        sessionId,
        JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      );
      const call = await sessionPost(port, sessionId, callBody('add', { a: 1, b: 1 }));
      expect(call.headers['content-type']).toBe('text/event-stream');
      expect(call.json.result.structuredContent).toEqual({ result: 2 });
      // tools/list never reaches a tool: it stays fast.
      const list = await sessionPost(
        port,
        sessionId,
        JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      );
      expect(list.headers['content-type']).toBe('application/json');
    });

    it('keeps the session alive while a fast call runs, then lets it expire', async () => {
      const { port, gate } = await serve({ sessionIdleTimeoutMs: 50 });
      const sessionId = await openRawSession(port);
      const held = sessionPost(port, sessionId, callBody('hold', {}));
      await waitFor(() => gate.waiting === 1);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(handle?.sessionCount).toBe(1);
      gate.release();
      expect((await held).json.result.content).toEqual([{ type: 'text', text: 'released' }]);
      await waitFor(() => handle?.sessionCount === 0);
    });
  });

  describe('with the default context (no buildContext hook)', () => {
    /** Serves without the hook and records the calls that failed, with their errors. */
    async function serveDefault(extra: AgentServerOptions) {
      const built = buildAgent();
      const failures: Array<{ toolName: string; error: Error }> = [];
      built.agent.on('tool-call-error', (event) => {
        failures.push({ toolName: event.toolName, error: event.error as Error });
      });
      handle = await startAgentServer(built.agent, { onError: built.options.onError, ...extra });
      return { ...built, failures, port: handle.port };
    }

    it('cancels the call when the client goes away, and frees its slot though the tool never returns', async () => {
      const { port, gate, failures } = await serveDefault({
        sessionMode: 'stateless',
        maxConcurrentStatelessCalls: 1,
      });
      const request = openPost(port, callBody('hold', {}));
      await waitFor(() => gate.waiting === 1);
      request.destroy();
      await waitFor(() => failures.length === 1);
      expect(failures[0].toolName).toBe('hold');
      expect(failures[0].error).toBeInstanceOf(ToolCancelledError);
      expect(failures[0].error.message).toMatch(
        /\(MCP error -32000: Connection closed\); tool 'hold' was stopped before it finished/,
      );
      // The tool still waits, but its slot is free: the next call is answered.
      expect(gate.waiting).toBe(1);
      const next = await post(port, callBody('add', { a: 2, b: 3 }, 2));
      expect(next.json.result.structuredContent).toEqual({ result: 5 });
      gate.release();
    });

    it("cancels a call on notifications/cancelled with the client's reason", async () => {
      const { port, gate, failures } = await serveDefault({ maxConcurrentCallsPerSession: 1 });
      const sessionId = await openRawSession(port);
      const held = post(port, callBody('hold', {}, 21), { 'mcp-session-id': sessionId });
      await waitFor(() => gate.waiting === 1);
      const cancel = await post(
        port,
        JSON.stringify({
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: 21, reason: 'user stopped it' },
        }),
        { 'mcp-session-id': sessionId },
      );
      expect(cancel.status).toBe(202);
      const answer = await held;
      expect([answer.status, answer.body]).toEqual([204, '']);
      await waitFor(() => failures.length === 1);
      expect(failures[0].error).toBeInstanceOf(ToolCancelledError);
      expect(failures[0].error.message).toMatch(
        /\(user stopped it\); tool 'hold' was stopped before it finished/,
      );
      const next = await post(port, callBody('add', { a: 1, b: 1 }, 22), { 'mcp-session-id': sessionId });
      expect(next.json.result.structuredContent).toEqual({ result: 2 });
      gate.release();
    });

    it('gives a finished call no cancellation when its client goes away afterwards', async () => {
      const { port, failures } = await serveDefault({ sessionMode: 'stateless' });
      const response = await post(port, callBody('add', { a: 20, b: 22 }));
      expect(response.json.result.structuredContent).toEqual({ result: 42 });
      expect(failures).toEqual([]);
    });
  });
});
