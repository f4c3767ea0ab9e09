import 'reflect-metadata';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type {
  CreateMessageRequest,
  CreateMessageResult,
  ElicitRequest,
  ElicitResult,
  LoggingMessageNotification,
  Progress,
} from '@modelcontextprotocol/sdk/types.js';
import { Agent } from '../../lib/agents/agent';
import type { ToolCallErrorEvent } from '../../lib/agents/agent-events';
import { ToolCancelledError } from '../../lib/errors/tool-cancelled-error';
import { ToolInputError } from '../../lib/errors/tool-input-error';
import { Context, Param, Tool, Toolset } from '../../lib/index';
import { CapabilityPolicy } from '../../lib/policy/capability-policy';
import { RunContext } from '../../lib/runtime/run-context';
import type { AgentServerHandle } from '../../lib/agents/agent-server-options';
import { createMcpServer } from '../../lib/mcp/rev2025-11-25/create-mcp-server';
import { startAgentServer } from '../../lib/server/start-agent-server';
import { callBody, MCP_HEADERS, openRawSession, rawRequest } from '../fixtures/serve/http-helpers';

const ROOT = join(__dirname, '..', '..');

@Toolset()
class HelpDeskTools {
  readonly deleted: string[] = [];

  @Tool({ name: 'count', description: 'Counts to three, reporting progress' })
  async count(@Context() context: RunContext): Promise<string> {
    for (let done = 1; done <= 3; done += 1) await context.reportProgress(done, 3, `step ${done}`);
    return 'counted';
  }

  @Tool({ name: 'chatty', description: 'Logs at four levels' })
  async chatty(@Context() context: RunContext): Promise<string> {
    await context.log('debug', 'd', 'chatty');
    await context.log('info', { step: 'i' }, 'chatty');
    await context.log('warning', 'w');
    await context.log('error', ['e']);
    return 'logged';
  }

  @Tool({ name: 'ask_age', description: 'Asks the user their age' })
  async askAge(@Context() context: RunContext): Promise<string> {
    const answer = await context.elicit('How old are you?', {
      type: 'object',
      properties: { age: { type: 'integer', minimum: 0 }, city: { type: 'string', default: 'Oslo' } },
      required: ['age'],
    });
    return `action=${answer.action} content=${JSON.stringify(answer.content ?? null)}`;
  }

  @Tool({ name: 'summarize', description: "Asks the client's model" })
  async summarize(@Param('text') text: string, @Context() context: RunContext): Promise<string> {
    const result = await context.sample({
      messages: [{ role: 'user', content: { type: 'text', text: `Summarize: ${text}` } }],
      maxTokens: 40,
      systemPrompt: 'Be brief.',
    });
    return `${result.model}: ${result.content.type === 'text' ? result.content.text : result.content.type}`;
  }

  @Tool({
    name: 'delete_file',
    description: 'Deletes a file',
    capabilities: ['files.delete'],
  })
  deleteFile(@Param('path') path: string): string {
    this.deleted.push(path);
    return `deleted ${path}`;
  }
}

function textOf(result: unknown): string {
  return ((result as { content: { text?: string }[] }).content ?? []).map((part) => part.text ?? '').join('');
}

describe('A served tool talking to its MCP client (HTTP and stdio)', () => {
  const tools = new HelpDeskTools();
  const callErrors: ToolCallErrorEvent[] = [];
  let agent: Agent;
  let server: AgentServerHandle;
  const clients: Client[] = [];

  // What the interactive client answers; each test sets it.
  let answerElicitation: (request: ElicitRequest) => ElicitResult | Promise<ElicitResult> = () => ({
    action: 'cancel',
  });
  const elicitations: ElicitRequest['params'][] = [];
  const samplings: CreateMessageRequest['params'][] = [];
  const logs: LoggingMessageNotification['params'][] = [];

  beforeAll(async () => {
    agent = new Agent({
      card: { name: 'help-desk', description: 'Helps', url: 'http://127.0.0.1:0' },
      policy: new CapabilityPolicy({ 'files.delete': 'require_approval' }),
    });
    agent.addToolset(tools);
    agent.on('tool-call-error', (event) => {
      callErrors.push(event);
    });
    server = await startAgentServer(agent, { interactionTimeoutMs: 2_000 });
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await server?.close();
  });

  async function connect(interactive: boolean): Promise<Client> {
    const client = new Client(
      { name: interactive ? 'interactive' : 'plain', version: '1.0.0' },
      { capabilities: interactive ? { elicitation: {}, sampling: {} } : {} },
    );
    if (interactive) {
      client.setRequestHandler(ElicitRequestSchema, (request) => {
        elicitations.push(request.params);
        return answerElicitation(request);
      });
      client.setRequestHandler(CreateMessageRequestSchema, (request): CreateMessageResult => {
        samplings.push(request.params);
        return {
          role: 'assistant',
          content: { type: 'text', text: 'a short summary' },
          model: 'client-model',
          stopReason: 'endTurn',
        };
      });
    }
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      logs.push(notification.params);
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.mcpUrl)));
    clients.push(client);
    return client;
  }

  beforeEach(() => {
    elicitations.length = 0;
    samplings.length = 0;
    logs.length = 0;
    callErrors.length = 0;
  });

  describe('progress', () => {
    it('reaches the client as notifications/progress when it sends a progress token (onprogress)', async () => {
      const client = await connect(false);
      const progress: Progress[] = [];
      const result = await client.callTool({ name: 'count', arguments: {} }, undefined, {
        onprogress: (update) => progress.push(update),
      });
      expect(textOf(result)).toBe('counted');
      expect(progress).toEqual([
        { progress: 1, total: 3, message: 'step 1' },
        { progress: 2, total: 3, message: 'step 2' },
        { progress: 3, total: 3, message: 'step 3' },
      ]);
    });

    it('is not sent when the request carries no progress token', async () => {
      const sessionId = await openRawSession(server.port);
      const headers = { ...MCP_HEADERS, 'mcp-session-id': sessionId };
      const without = await rawRequest({ port: server.port, headers, body: callBody('count', {}, 3) });
      expect(without.status).toBe(200);
      expect(without.json).toMatchObject({ id: 3, result: { content: [{ text: 'counted' }] } });
      expect(without.body).not.toContain('notifications/progress');

      const withToken = await rawRequest({
        port: server.port,
        headers,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 4,
          method: 'tools/call',
          params: { name: 'count', arguments: {}, _meta: { progressToken: 'tok-1' } },
        }),
      });
      const progress = withToken.body
        .split('\n')
        .filter((line) => line.startsWith('data: ') && line.includes('notifications/progress'))
        .map((line) => JSON.parse(line.slice(6)).params);
      expect(progress).toEqual([
        { progressToken: 'tok-1', progress: 1, total: 3, message: 'step 1' },
        { progressToken: 'tok-1', progress: 2, total: 3, message: 'step 2' },
        { progressToken: 'tok-1', progress: 3, total: 3, message: 'step 3' },
      ]);
    });
  });

  describe('logging', () => {
    it('sends every level until the client sets one, then only that level and above', async () => {
      const client = await connect(false);
      await client.callTool({ name: 'chatty', arguments: {} });
      expect(logs).toEqual([
        { level: 'debug', data: 'd', logger: 'chatty' },
        { level: 'info', data: { step: 'i' }, logger: 'chatty' },
        { level: 'warning', data: 'w' },
        { level: 'error', data: ['e'] },
      ]);
      logs.length = 0;
      await client.setLoggingLevel('warning');
      await client.callTool({ name: 'chatty', arguments: {} });
      expect(logs.map((entry) => entry.level)).toEqual(['warning', 'error']);
      logs.length = 0;
      await client.setLoggingLevel('emergency');
      await client.callTool({ name: 'chatty', arguments: {} });
      expect(logs).toEqual([]);
    });

    it('keeps the level per session: another client still gets everything', async () => {
      const quiet = await connect(false);
      await quiet.setLoggingLevel('error');
      const other = await connect(false);
      await other.callTool({ name: 'chatty', arguments: {} });
      expect(logs.map((entry) => entry.level)).toEqual(['debug', 'info', 'warning', 'error']);
    });

    it('refuses an unknown level with a JSON-RPC error', async () => {
      const client = await connect(false);
      await expect(client.setLoggingLevel('loud' as never)).rejects.toThrow(/level|Invalid/i);
    });
  });

  describe('elicitation', () => {
    it("is answered by the client's elicitation/create handler; content coerced, defaults applied", async () => {
      answerElicitation = () => ({ action: 'accept', content: { age: '30' } });
      const client = await connect(true);
      const result = await client.callTool({ name: 'ask_age', arguments: {} });
      expect(result.isError).toBeFalsy();
      expect(textOf(result)).toBe('action=accept content={"age":30,"city":"Oslo"}');
      expect(elicitations).toEqual([
        {
          message: 'How old are you?',
          requestedSchema: {
            type: 'object',
            properties: { age: { type: 'integer', minimum: 0 }, city: { type: 'string', default: 'Oslo' } },
            required: ['age'],
          },
        },
      ]);
    });

    it('passes decline and cancel to the tool without content', async () => {
      const client = await connect(true);
      answerElicitation = () => ({ action: 'decline' });
      expect(textOf(await client.callTool({ name: 'ask_age', arguments: {} }))).toBe(
        'action=decline content=null',
      );
      answerElicitation = () => ({ action: 'cancel' });
      expect(textOf(await client.callTool({ name: 'ask_age', arguments: {} }))).toBe(
        'action=cancel content=null',
      );
    });

    it('content that does not match the schema → isError naming the field', async () => {
      answerElicitation = () => ({ action: 'accept', content: { age: 'thirty' } });
      const client = await connect(true);
      const result = await client.callTool({ name: 'ask_age', arguments: {} });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/ask_age.*age/);
    });

    it('a client whose handler fails → isError saying the tool did not get its answer', async () => {
      answerElicitation = () => {
        throw new Error('the form crashed');
      };
      const client = await connect(true);
      const result = await client.callTool({ name: 'ask_age', arguments: {} });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(
        /^Tool 'ask_age' did not get the answer to its question from the MCP client: .*the form crashed/,
      );
    });

    it('a client that never answers → isError after interactionTimeoutMs', async () => {
      answerElicitation = () => new Promise(() => undefined);
      const client = await connect(true);
      const result = await client.callTool({ name: 'ask_age', arguments: {} });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(
        /^Tool 'ask_age' did not get the answer to its question from the MCP client: .*timed out/i,
      );
    });

    it('a call canceled by the client while waiting ends with ToolCancelledError on the server', async () => {
      let asked!: () => void;
      const waiting = new Promise<void>((resolve) => (asked = resolve));
      answerElicitation = () => {
        asked();
        return new Promise(() => undefined);
      };
      const client = await connect(true);
      const abort = new AbortController();
      const call = client.callTool({ name: 'ask_age', arguments: {} }, undefined, { signal: abort.signal });
      await waiting;
      abort.abort('user left');
      await expect(call).rejects.toThrow();
      await waitUntil(() => callErrors.length > 0);
      expect(callErrors[0].toolName).toBe('ask_age');
      expect(callErrors[0].error).toBeInstanceOf(ToolCancelledError);
    });

    it('a client without the elicitation capability → isError naming the missing capability', async () => {
      const client = await connect(false);
      const result = await client.callTool({ name: 'ask_age', arguments: {} });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(
        "Tool 'ask_age' asked the user a question (context.elicit), but the connected MCP client did not declare the elicitation capability.",
      );
    });
  });

  describe('sampling', () => {
    it("is answered by the client's sampling/createMessage handler", async () => {
      const client = await connect(true);
      const result = await client.callTool({ name: 'summarize', arguments: { text: 'a long story' } });
      expect(textOf(result)).toBe('client-model: a short summary');
      expect(samplings).toEqual([
        {
          messages: [{ role: 'user', content: { type: 'text', text: 'Summarize: a long story' } }],
          maxTokens: 40,
          systemPrompt: 'Be brief.',
        },
      ]);
    });

    it('a client without the sampling capability → isError naming the missing capability', async () => {
      const client = await connect(false);
      const result = await client.callTool({ name: 'summarize', arguments: { text: 'x' } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(
        "Tool 'summarize' asked for a model completion (context.sample), but the connected MCP client did not declare the sampling capability.",
      );
    });
  });

  describe('approval through elicitation (agent without approvalHandler)', () => {
    it('asks the client; accept → approved and the tool runs', async () => {
      answerElicitation = () => ({ action: 'accept', content: {} });
      const client = await connect(true);
      const result = await client.callTool({ name: 'delete_file', arguments: { path: '/tmp/a.txt' } });
      expect(result.isError).toBeFalsy();
      expect(textOf(result)).toBe('deleted /tmp/a.txt');
      expect(tools.deleted).toContain('/tmp/a.txt');
      expect(elicitations).toHaveLength(1);
      expect(elicitations[0]).toMatchObject({ requestedSchema: { type: 'object', properties: {} } });
      expect(elicitations[0].message).toMatch(/^Allow tool 'delete_file' to run\?\nDeletes a file\n/);
      expect(elicitations[0].message).toContain('Capabilities: files.delete');
      expect(elicitations[0].message).toContain('"path":"/tmp/a.txt"');
    });

    it.each(['decline', 'cancel'] as const)('%s → denied, the tool does not run', async (action) => {
      answerElicitation = () => ({ action });
      const client = await connect(true);
      const path = `/tmp/${action}.txt`;
      const result = await client.callTool({ name: 'delete_file', arguments: { path } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/delete_file/);
      expect(textOf(result)).toMatch(new RegExp(`not approved|denied|the user chose ${action}`, 'i'));
      expect(tools.deleted).not.toContain(path);
    });

    it('a client without elicitation → fails closed as before (approval required), the tool does not run', async () => {
      const client = await connect(false);
      const result = await client.callTool({ name: 'delete_file', arguments: { path: '/tmp/plain.txt' } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/approval/i);
      expect(tools.deleted).not.toContain('/tmp/plain.txt');
    });
  });

  describe('interactionTimeoutMs', () => {
    it.each([0, -5, 1.5, Number.NaN, '100'])(
      'refuses %p with ToolInputError (HTTP and createMcpServer)',
      async (value) => {
        const message = `interactionTimeoutMs must be a whole number of milliseconds >= 1, got ${String(value)}`;
        const starting = (async () => startAgentServer(agent, { interactionTimeoutMs: value as number }))();
        await expect(starting).rejects.toBeInstanceOf(ToolInputError);
        await expect(starting).rejects.toThrow(message);
        expect(() => createMcpServer(agent, { interactionTimeoutMs: value as number })).toThrow(
          ToolInputError,
        );
      },
    );
  });

  describe('over stdio (protolink serve of sample 09)', () => {
    it('round-trips one elicitation', async () => {
      const client = new Client(
        { name: 'stdio-interactive', version: '1.0.0' },
        { capabilities: { elicitation: {} } },
      );
      const seen: ElicitRequest['params'][] = [];
      client.setRequestHandler(ElicitRequestSchema, (request) => {
        seen.push(request.params);
        return { action: 'accept', content: { username: 'ada', email: 'ada@example.com' } };
      });
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [
            '-r',
            'ts-node/register/transpile-only',
            join(ROOT, 'spec', 'fixtures', 'serve', 'run-serve-cli.ts'),
            'serve',
            join(ROOT, 'samples', '09-mcp-conformance', 'server.ts'),
            '--stdio',
          ],
          cwd: ROOT,
          stderr: 'pipe',
        }),
      );
      try {
        const result = await client.callTool({
          name: 'test_elicitation',
          arguments: { message: 'Who are you?' },
        });
        expect(textOf(result)).toBe(
          'User response: action=accept, content={"username":"ada","email":"ada@example.com"}',
        );
        expect(seen).toEqual([
          expect.objectContaining({
            message: 'Who are you?',
            requestedSchema: expect.objectContaining({ required: ['username', 'email'] }),
          }),
        ]);
      } finally {
        await client.close();
      }
    }, 120_000);
  });
});

function waitUntil(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const poll = () => {
      if (check()) resolve();
      else if (Date.now() - started > timeoutMs) reject(new RangeError('condition not reached in time'));
      else setTimeout(poll, 10);
    };
    poll();
  });
}
