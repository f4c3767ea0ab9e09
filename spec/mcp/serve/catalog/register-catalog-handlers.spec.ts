import 'reflect-metadata';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Agent } from '../../../../lib/agents/agent';
import { ToolInputError } from '../../../../lib/errors/tool-input-error';
import { CapabilityPolicy } from '../../../../lib/policy/capability-policy';
import type { AgentServerHandle } from '../../../../lib/agents/agent-server-options';
import { DEFAULT_MAX_SUBSCRIPTIONS_PER_SESSION } from '../../../../lib/mcp/serve/catalog/resource-subscriptions';
import { createAgentRequestHandler } from '../../../../lib/server/create-agent-request-handler';
import { startAgentServer } from '../../../../lib/server/start-agent-server';
import { createGuardedCatalog } from '../../../fixtures/catalog/guarded-catalog';
import type { GuardedCatalog } from '../../../fixtures/catalog/guarded-catalog';

const ROOT = join(__dirname, '..', '..', '..', '..');
const card = { name: 'files', description: 'Files', url: 'http://127.0.0.1:0' };
const DENY_ALL = { 'files.read': 'deny', 'files.secret': 'deny', 'customers.read': 'deny' } as const;
const FILE_TEMPLATE = { type: 'ref/resource', uri: 'files://{folder}/{name}' } as const;
const EMAIL_PROMPT = { type: 'ref/prompt', name: 'customer_email' } as const;

async function rpcError(promise: Promise<unknown>): Promise<McpError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}

async function connect(url: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'catalog-guards-spec', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return { client, transport };
}

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for a condition');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Notifies the denied resource, then the allowed one, until the client has heard of the allowed one (its
 * GET stream opens a moment after subscribing): notifications keep their order, so had the session been
 * subscribed to the denied one it would have heard of it first.
 */
async function notifyUntilHeard(agent: Agent, seen: readonly string[]): Promise<void> {
  await waitFor(() => {
    agent.notifyResourceUpdated('files://secret');
    agent.notifyResourceUpdated('files://open');
    return seen.includes('files://open');
  });
}

function guardedAgent(
  guarded: GuardedCatalog,
  options: Partial<ConstructorParameters<typeof Agent>[0]> = {},
): Agent {
  return new Agent({ card, transport: 'http', toolsets: [guarded.service], ...options });
}

describe('registerCatalogHandlers: the served catalog guards', () => {
  describe('stateful HTTP', () => {
    const strict = createGuardedCatalog();
    const open = createGuardedCatalog();
    let strictAgent: Agent;
    let strictServer: AgentServerHandle;
    let openServer: AgentServerHandle;

    beforeAll(async () => {
      strictAgent = guardedAgent(strict, { policy: new CapabilityPolicy(DENY_ALL) });
      strictServer = await startAgentServer(strictAgent);
      openServer = await startAgentServer(
        guardedAgent(open, {
          policy: new CapabilityPolicy({ 'customers.read': 'require_approval' }),
          // Approves a completion of customers whose names start with A, nothing else.
          approvalHandler: (request) =>
            (request.action.payload.completion as { value?: string } | undefined)?.value === 'A',
        }),
      );
    });

    afterAll(async () => {
      await strictServer?.close();
      await openServer?.close();
    });

    it('answers a {x} value that decodes to a path or a NUL with -32002 and the URI in data; the method never runs', async () => {
      const { client } = await connect(openServer.mcpUrl);
      try {
        for (const uri of ['files://..%2F..%2Fetc/..%2F..%2Fpasswd', 'files://etc/passwd%00.txt']) {
          const error = await rpcError(client.readResource({ uri }));
          expect(error.code).toBe(-32002);
          expect(error.data).toEqual({ uri });
          expect(error.message).toContain(`Resource not found: '${uri}'.`);
          expect(error.message).toContain("The template 'files://{folder}/{name}' has its shape");
        }
        expect((await client.readResource({ uri: 'files://etc/passwd' })).contents[0]).toEqual({
          uri: 'files://etc/passwd',
          text: 'etc/passwd',
        });
        expect(open.reads).toEqual(['file|etc|passwd']);
      } finally {
        await client.close();
      }
    });

    it('answers a denied completion of a template or a prompt with -32003, without running the provider', async () => {
      const { client } = await connect(strictServer.mcpUrl);
      try {
        const template = await rpcError(
          client.complete({ ref: FILE_TEMPLATE, argument: { name: 'name', value: 'p' } }),
        );
        expect(template.code).toBe(-32003);
        expect(template.message).toMatch(/Action 'files:\/\/\{folder\}\/\{name\}' denied/);
        const prompt = await rpcError(
          client.complete({ ref: EMAIL_PROMPT, argument: { name: 'customer', value: '' } }),
        );
        expect(prompt.code).toBe(-32003);
        expect(JSON.stringify(prompt)).not.toContain('Ada');
        expect(strict.providerCalls).toEqual([]);
      } finally {
        await client.close();
      }
    });

    it("completes an allowed entry with the request's RunContext: its session id and a live signal", async () => {
      const { client, transport } = await connect(openServer.mcpUrl);
      try {
        const before = open.providerCalls.length;
        await expect(
          client.complete({
            ref: FILE_TEMPLATE,
            argument: { name: 'name', value: 's' },
            context: { arguments: { folder: 'etc' } },
          }),
        ).resolves.toEqual({ completion: { values: ['shadow'], total: 1, hasMore: false } });
        const call = open.providerCalls[before];
        expect(call.context?.arguments).toEqual({ folder: 'etc' });
        expect(call.context?.runContext?.sessionId).toBe(transport.sessionId);
        expect(call.context?.runContext?.signal).toBeInstanceOf(AbortSignal);
      } finally {
        await client.close();
      }
    });

    it('asks the approver before completing, and answers -32003 when it refuses', async () => {
      const { client } = await connect(openServer.mcpUrl);
      try {
        const before = open.providerCalls.length;
        await expect(
          client.complete({ ref: EMAIL_PROMPT, argument: { name: 'customer', value: 'A' } }),
        ).resolves.toEqual({
          completion: { values: ['Ada Lovelace', 'Alan Turing'], total: 2, hasMore: false },
        });
        const refused = await rpcError(
          client.complete({ ref: EMAIL_PROMPT, argument: { name: 'customer', value: 'G' } }),
        );
        expect(refused.code).toBe(-32003);
        expect(open.providerCalls.slice(before).map((call) => call.value)).toEqual(['A']);
      } finally {
        await client.close();
      }
    });

    it('refuses to subscribe to a resource the caller may not read (-32003), and that session never hears of it', async () => {
      const { client } = await connect(strictServer.mcpUrl);
      const seen: string[] = [];
      client.setNotificationHandler(
        ResourceUpdatedNotificationSchema,
        (note) => void seen.push(note.params.uri),
      );
      try {
        await expect(client.subscribeResource({ uri: 'files://open' })).resolves.toEqual({});
        for (const uri of ['files://secret', 'files://etc/passwd']) {
          const error = await rpcError(client.subscribeResource({ uri }));
          expect(error.code).toBe(-32003);
          expect(error.message).toMatch(/denied/);
        }
        await notifyUntilHeard(strictAgent, seen);
        expect(new Set(seen)).toEqual(new Set(['files://open']));
        expect(strict.reads).toEqual([]);
      } finally {
        await client.close();
      }
    });

    it('refuses a subscription past maxSubscriptionsPerSession with -32029, keeps re-subscriptions, and frees a place on unsubscribe', async () => {
      const guarded = createGuardedCatalog();
      const served = await startAgentServer(guardedAgent(guarded), { maxSubscriptionsPerSession: 3 });
      const { client } = await connect(served.mcpUrl);
      try {
        for (const index of [1, 2, 3]) await client.subscribeResource({ uri: `files://f/${index}` });
        await expect(client.subscribeResource({ uri: 'files://f/2' })).resolves.toEqual({});
        const error = await rpcError(client.subscribeResource({ uri: 'files://f/4' }));
        expect(error.code).toBe(-32029);
        expect(error.data).toEqual({ maxSubscriptionsPerSession: 3 });
        expect(error.message).toBe(
          'MCP error -32029: This session is subscribed to 3 resources, the most this server keeps (maxSubscriptionsPerSession); unsubscribe from one (resources/unsubscribe) before subscribing to another.',
        );
        await client.unsubscribeResource({ uri: 'files://f/1' });
        await expect(client.subscribeResource({ uri: 'files://f/4' })).resolves.toEqual({});
        // Another session has its own subscriptions.
        const other = await connect(served.mcpUrl);
        await expect(other.client.subscribeResource({ uri: 'files://f/9' })).resolves.toEqual({});
        await other.client.close();
        expect(guarded.reads).toEqual([]);
      } finally {
        await client.close();
        await served.close();
      }
    });

    it(`holds at most ${DEFAULT_MAX_SUBSCRIPTIONS_PER_SESSION} subscriptions per session by default`, async () => {
      const { client } = await connect(openServer.mcpUrl);
      try {
        for (let start = 0; start < DEFAULT_MAX_SUBSCRIPTIONS_PER_SESSION; start += 100)
          await Promise.all(
            Array.from({ length: 100 }, (_, offset) =>
              client.subscribeResource({ uri: `files://many/${start + offset}` }),
            ),
          );
        const error = await rpcError(client.subscribeResource({ uri: 'files://many/last' }));
        expect(error.code).toBe(-32029);
        expect(error.data).toEqual({ maxSubscriptionsPerSession: DEFAULT_MAX_SUBSCRIPTIONS_PER_SESSION });
      } finally {
        await client.close();
      }
    }, 60_000);

    it('refuses a maxSubscriptionsPerSession that is not a whole number >= 1', async () => {
      const agent = guardedAgent(createGuardedCatalog());
      for (const value of [0, 1.5, Number.NaN]) {
        const message = `maxSubscriptionsPerSession must be a whole number >= 1, got ${String(value)}; it bounds the resources one session may subscribe to at once.`;
        await expect(startAgentServer(agent, { maxSubscriptionsPerSession: value })).rejects.toThrow(
          new ToolInputError(message),
        );
        expect(() => createAgentRequestHandler(agent, { maxSubscriptionsPerSession: value })).toThrow(
          new ToolInputError(message),
        );
      }
    });
  });

  describe('stateless HTTP', () => {
    it('refuses denied completions and subscriptions on every request, before the provider or the read runs', async () => {
      const guarded = createGuardedCatalog();
      const served = await startAgentServer(
        guardedAgent(guarded, { policy: new CapabilityPolicy(DENY_ALL) }),
        { sessionMode: 'stateless' },
      );
      const { client } = await connect(served.mcpUrl);
      try {
        const completion = await rpcError(
          client.complete({ ref: FILE_TEMPLATE, argument: { name: 'name', value: '' } }),
        );
        expect(completion.code).toBe(-32003);
        expect((await rpcError(client.subscribeResource({ uri: 'files://secret' }))).code).toBe(-32003);
        await expect(client.subscribeResource({ uri: 'files://open' })).resolves.toEqual({});
        expect(guarded.providerCalls).toEqual([]);
        expect(guarded.reads).toEqual([]);
      } finally {
        await client.close();
        await served.close();
      }
    });
  });

  describe('stdio', () => {
    it('refuses denied completions and subscriptions, answers a traversal as not found, and bounds subscriptions', async () => {
      const client = new Client({ name: 'catalog-guards-stdio', version: '1.0.0' });
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [
            '-r',
            'ts-node/register/transpile-only',
            join(ROOT, 'spec', 'fixtures', 'serve', 'serve-guarded-catalog-stdio-fixture.ts'),
          ],
          cwd: ROOT,
          stderr: 'pipe',
        }),
      );
      const seen: string[] = [];
      client.setNotificationHandler(
        ResourceUpdatedNotificationSchema,
        (note) => void seen.push(note.params.uri),
      );
      try {
        for (const request of [
          client.complete({ ref: FILE_TEMPLATE, argument: { name: 'name', value: 'p' } }),
          client.complete({ ref: EMAIL_PROMPT, argument: { name: 'customer', value: 'A' } }),
          client.subscribeResource({ uri: 'files://secret' }),
        ])
          expect((await rpcError(request)).code).toBe(-32003);
        const traversal = await rpcError(client.readResource({ uri: 'files://..%2Fetc/passwd' }));
        expect(traversal.code).toBe(-32002);
        expect(traversal.data).toEqual({ uri: 'files://..%2Fetc/passwd' });
        await client.subscribeResource({ uri: 'files://open' });
        await client.subscribeResource({ uri: 'docs://a' });
        expect((await rpcError(client.subscribeResource({ uri: 'docs://b' }))).code).toBe(-32029);
        await waitFor(() => seen.includes('files://open'));
        expect(seen).not.toContain('files://secret');
      } finally {
        await client.close();
      }
    }, 60_000);
  });
});
