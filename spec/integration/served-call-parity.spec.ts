import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { Agent } from '../../lib/agents/agent';
import { ToolCancelledError } from '../../lib/errors/tool-cancelled-error';
import { CapabilityPolicy } from '../../lib/policy/capability-policy';
import type { AgentServerHandle } from '../../lib/agents/agent-server-options';
import { startAgentServer } from '../../lib/server/start-agent-server';
import { NativeTool } from '../../lib/tools/native-tool';
import { waitFor } from '../fixtures/serve/http-helpers';

// The same tool calls served through the /mcp front door in every way the 2025-11-25 revision offers give
// the same results and the same error shapes (code, message, data), on the wire and in the SDK client:
// stateful through the SDK's request handlers (a client able to answer questions keeps its calls there),
// stateful on the fast path, stateless on the fast path, and stateless through the SDK (a progress token).
// What tells the paths apart: the SDK answers a POST with SSE here, the fast path with JSON.

/** One way of serving a call: its server's mode, and how its client makes calls take the path. */
interface Way {
  readonly name: string;
  readonly sessionMode: 'stateful' | 'stateless';
  /** The client declares elicitation: its session's calls stay on the SDK path. */
  readonly asksQuestions: boolean;
  /** The client asks for progress: each call carries a progress token and goes through the SDK. */
  readonly withProgress: boolean;
  /** The content type of a tools/call answer: `text/event-stream` from the SDK, JSON from the fast path. */
  readonly answeredAs: string;
}

const WAYS: readonly Way[] = [
  {
    name: 'stateful, SDK handlers',
    sessionMode: 'stateful',
    asksQuestions: true,
    withProgress: false,
    answeredAs: 'text/event-stream',
  },
  {
    name: 'stateful, fast path',
    sessionMode: 'stateful',
    asksQuestions: false,
    withProgress: false,
    answeredAs: 'application/json',
  },
  {
    name: 'stateless, fast path',
    sessionMode: 'stateless',
    asksQuestions: false,
    withProgress: false,
    answeredAs: 'application/json',
  },
  {
    name: 'stateless, SDK handlers',
    sessionMode: 'stateless',
    asksQuestions: false,
    withProgress: true,
    answeredAs: 'text/event-stream',
  },
];

/** A tools/call as the wire carried it: the answer's status, content type and JSON-RPC message. */
interface WireAnswer {
  readonly status: number;
  readonly contentType: string | null;
  readonly message: Record<string, unknown> | undefined;
}

/** What one call gave: the SDK client's result or error, and the wire answer of its POST. */
interface Outcome {
  readonly client: { result: unknown } | { error: { code: number; message: string; data: unknown } };
  readonly wire: { result?: unknown; error?: unknown };
}

function buildAgent() {
  let releaseAll: () => void = () => undefined;
  let released = new Promise<void>((resolve) => (releaseAll = resolve));
  let waiting = 0;
  const agent = new Agent({
    card: { name: 'parity', description: 'Parity of the ways of serving', url: 'http://127.0.0.1:0' },
    policy: new CapabilityPolicy({ 'records.delete': 'deny' }),
  });
  agent.addTool(
    new NativeTool({
      name: 'add',
      description: 'Adds two integers',
      inputSchema: { a: 'int', b: 'int' },
      func: ({ a, b }) => (a as number) + (b as number),
    }),
  );
  agent.addTool(
    new NativeTool({
      name: 'profile',
      description: 'Describes a person',
      inputSchema: { name: 'str' },
      outputSchema: {
        type: 'object',
        properties: { name: { type: 'string' }, letters: { type: 'integer' } },
        required: ['name', 'letters'],
      },
      func: ({ name }) => ({ name, letters: (name as string).length }),
    }),
  );
  agent.addTool(
    new NativeTool({
      name: 'crash',
      description: 'Fails inside',
      inputSchema: {},
      func: () => {
        throw new Error('database password is hunter2');
      },
    }),
  );
  agent.addTool(
    new NativeTool({
      name: 'wipe',
      description: 'Deletes every record',
      inputSchema: {},
      capabilities: ['records.delete'],
      func: () => 'wiped',
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
  const failures: Array<{ toolName: string; error: Error }> = [];
  agent.on('tool-call-error', (event) => {
    failures.push({ toolName: event.toolName, error: event.error as Error });
  });
  const gate = {
    release: () => {
      releaseAll();
      released = new Promise<void>((resolve) => (releaseAll = resolve));
    },
    get waiting() {
      return waiting;
    },
  };
  return { agent, gate, failures };
}

/** The JSON-RPC message of an answer: the JSON body, or the data of an SSE `message` event. */
function readMessage(body: string): Record<string, unknown> | undefined {
  if (body === '') return undefined;
  try {
    return JSON.parse(body) as Record<string, unknown>;
  } catch {
    const line = body.split('\n').find((candidate) => candidate.startsWith('data: ') && candidate.length > 6);
    return line ? (JSON.parse(line.slice(6)) as Record<string, unknown>) : undefined;
  }
}

/** A served agent and an SDK client connected to it in one way, recording the wire answer of every call. */
class Door {
  private constructor(
    readonly way: Way,
    readonly handle: AgentServerHandle,
    readonly client: Client,
    readonly answers: readonly WireAnswer[],
  ) {}

  static async open(way: Way, agent: Agent): Promise<Door> {
    const handle = await startAgentServer(agent, { sessionMode: way.sessionMode });
    const answers: WireAnswer[] = [];
    const recording: FetchLike = async (url, init) => {
      const response = await fetch(url, init);
      const sent = typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: unknown }) : {};
      if (sent.method === 'tools/call') {
        const body = await response.clone().text();
        answers.push({
          status: response.status,
          contentType: response.headers.get('content-type'),
          message: readMessage(body),
        });
      }
      return response;
    };
    const client = new Client(
      { name: 'parity-client', version: '1.0.0' },
      { capabilities: way.asksQuestions ? { elicitation: {} } : {} },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(handle.mcpUrl), { fetch: recording }));
    return new Door(way, handle, client, answers);
  }

  /** Calls a tool as this way's client does, and returns what the client and the wire saw. */
  async call(name: string, args: Record<string, unknown>): Promise<Outcome> {
    const before = this.answers.length;
    const options = this.way.withProgress ? { onprogress: () => undefined } : undefined;
    const client = await this.client.callTool({ name, arguments: args }, undefined, options).then(
      (result) => ({ result }),
      (error: unknown) => {
        if (!(error instanceof McpError)) throw error;
        return { error: { code: error.code, message: error.message, data: error.data } };
      },
    );
    expect(this.answers.length).toBe(before + 1);
    const answer = this.answers[before]!;
    expect([answer.status, answer.contentType]).toEqual([200, this.way.answeredAs]);
    const { result, error } = answer.message ?? {};
    return { client, wire: error === undefined ? { result } : { error } };
  }

  async close(): Promise<void> {
    await this.client.close();
    await this.handle.close();
  }
}

describe('a tools/call served through the /mcp front door', () => {
  let doors: Door[] = [];
  let built: ReturnType<typeof buildAgent>;

  beforeEach(async () => {
    built = buildAgent();
    doors = [];
    for (const way of WAYS) doors.push(await Door.open(way, built.agent));
  });

  afterEach(async () => {
    built.gate.release();
    await Promise.all(doors.map((door) => door.close()));
  });

  /** The call's outcome in every way; each must equal the first (the stateful SDK path). */
  async function callEveryWay(name: string, args: Record<string, unknown>): Promise<Outcome> {
    const outcomes: Outcome[] = [];
    for (const door of doors) outcomes.push(await door.call(name, args));
    for (const [index, outcome] of outcomes.entries())
      expect({ way: WAYS[index]!.name, ...outcome }).toEqual({ way: WAYS[index]!.name, ...outcomes[0]! });
    return outcomes[0]!;
  }

  it('gives the same success in every way', async () => {
    const result = { content: [{ type: 'text', text: '5' }], structuredContent: { result: 5 } };
    expect(await callEveryWay('add', { a: 2, b: 3 })).toEqual({ client: { result }, wire: { result } });
  });

  it('gives the same structured result in every way', async () => {
    const result = {
      content: [{ type: 'text', text: '{"name":"Ada","letters":3}' }],
      structuredContent: { name: 'Ada', letters: 3 },
    };
    expect(await callEveryWay('profile', { name: 'Ada' })).toEqual({ client: { result }, wire: { result } });
  });

  it('gives the same tool error (isError, redacted) in every way', async () => {
    const result = {
      _meta: {
        'dev.protolink/error': {
          name: 'InternalError',
          code: 'INTERNAL',
          message: 'internal error',
          toolName: 'crash',
        },
      },
      content: [
        {
          type: 'text',
          text: "Tool 'crash' failed with an internal error; the server's log has the details.",
        },
      ],
      isError: true,
    };
    const outcome = await callEveryWay('crash', {});
    expect(outcome).toEqual({ client: { result }, wire: { result } });
    expect(JSON.stringify(outcome)).not.toContain('hunter2');
    expect(built.failures.map((failure) => failure.error.message)).toEqual(
      WAYS.map(() => 'database password is hunter2'),
    );
  });

  it('gives the same validation error in every way', async () => {
    const message = `Invalid arguments for tool 'add': a: must be an integer, got the string "x"`;
    const result = {
      _meta: {
        'dev.protolink/error': {
          name: 'ToolValidationError',
          code: 'TOOL_VALIDATION',
          message,
          toolName: 'add',
          issues: [{ path: 'a', message: 'must be an integer, got the string "x"' }],
        },
      },
      content: [{ type: 'text', text: message }],
      isError: true,
    };
    expect(await callEveryWay('add', { a: 'x', b: 2 })).toEqual({ client: { result }, wire: { result } });
  });

  it('gives the same unknown-tool error in every way', async () => {
    const data = { availableTools: ['add', 'crash', 'hold', 'profile', 'wipe'] };
    expect(await callEveryWay('nope', {})).toEqual({
      // The SDK client puts its own "MCP error <code>: " before the message it received.
      client: {
        error: { code: -32602, message: 'MCP error -32602: MCP error -32602: Unknown tool: nope', data },
      },
      wire: { error: { code: -32602, message: 'MCP error -32602: Unknown tool: nope', data } },
    });
  });

  it('gives the same policy denial in every way', async () => {
    const message = "Action 'wipe' denied: Denied capabilities: records.delete";
    const result = {
      _meta: {
        'dev.protolink/error': {
          name: 'ActionDeniedError',
          code: 'ACTION_DENIED',
          message,
          toolName: 'wipe',
        },
      },
      content: [{ type: 'text', text: message }],
      isError: true,
    };
    expect(await callEveryWay('wipe', {})).toEqual({ client: { result }, wire: { result } });
  });

  // Stateless serving has no session to carry a notifications/cancelled to the request running the call (a
  // stateless call stops when its client goes away instead), so only the two stateful paths are compared.
  it('cancels a call on notifications/cancelled the same way on both stateful paths', async () => {
    const stateful = doors.filter((door) => door.way.sessionMode === 'stateful');
    expect(stateful.map((door) => door.way.name)).toEqual(['stateful, SDK handlers', 'stateful, fast path']);
    for (const door of stateful) {
      const controller = new AbortController();
      const answered = door.answers.length;
      const failed = built.failures.length;
      const called = door.client
        .callTool({ name: 'hold', arguments: {} }, undefined, { signal: controller.signal })
        .catch((error: unknown) => error);
      await waitFor(() => built.gate.waiting === 1);
      controller.abort('user stopped it');
      const error = await called;
      expect(error).toBeInstanceOf(McpError);
      expect([(error as McpError).code, (error as McpError).message]).toEqual([
        -32001,
        'MCP error -32001: user stopped it',
      ]);
      await waitFor(() => built.failures.length === failed + 1 && door.answers.length === answered + 1);
      const failure = built.failures[failed]!;
      expect(failure.toolName).toBe('hold');
      expect(failure.error).toBeInstanceOf(ToolCancelledError);
      expect(failure.error.message).toMatch(
        /^Run \S+ was canceled \(user stopped it\); tool 'hold' was stopped before it finished\.$/,
      );
      // The POST is released without a JSON-RPC answer (the SDK path ends its open SSE stream; the fast path,
      // which has sent nothing yet, answers 204).
      expect(door.answers[answered]!.message).toBeUndefined();
      built.gate.release();
      // The session goes on serving.
      expect((await door.call('add', { a: 1, b: 1 })).wire).toEqual({
        result: { content: [{ type: 'text', text: '2' }], structuredContent: { result: 2 } },
      });
    }
  });
});
