import 'reflect-metadata';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ListResourcesResultSchema,
  McpError,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import { Agent } from '../../lib/agents/agent';
import { CapabilityPolicy } from '../../lib/policy/capability-policy';
import { Prompt } from '../../lib/prompts/prompt.decorator';
import { Resource } from '../../lib/resources/resource.decorator';
import type { AgentServerHandle } from '../../lib/agents/agent-server-options';
import { startAgentServer } from '../../lib/server/start-agent-server';
import { Tool } from '../../lib/tools/decorators/tool.decorator';
import { NotesCatalog, PNG_BYTES } from '../fixtures/catalog/notes-catalog';

const ROOT = join(__dirname, '..', '..');
const card = { name: 'notes', description: 'Notes', url: 'http://127.0.0.1:0' };

/** A service with 120 resources (generated, decorated like written ones): more than one page. */
function manyResources(): object {
  class Many {}
  for (let index = 0; index < 120; index += 1) {
    const name = `r${index}`;
    Object.defineProperty(Many.prototype, name, { value: () => `resource ${index}`, writable: true });
    Resource({ uri: `many://${index}` })(
      Many.prototype,
      name,
      Object.getOwnPropertyDescriptor(Many.prototype, name)!,
    );
  }
  return new Many();
}

function buildAgent(): Agent {
  const agent = new Agent({
    card,
    transport: 'http',
    policy: new CapabilityPolicy({ 'notes.secret': 'deny' }),
    toolsets: [new NotesCatalog()],
  });
  agent.addToolset(manyResources());
  return agent;
}

async function rpcError(promise: Promise<unknown>): Promise<McpError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: 'catalog-spec', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

describe('Serving resources, templates and prompts over MCP', () => {
  describe('stateful HTTP', () => {
    let agent: Agent;
    let served: AgentServerHandle;
    let client: Client;

    beforeAll(async () => {
      agent = buildAgent();
      served = await startAgentServer(agent);
      client = await connect(served.mcpUrl);
    });

    afterAll(async () => {
      await client?.close();
      await served?.close();
    });

    it('declares resources (subscribe, listChanged), prompts and completions', () => {
      expect(client.getServerCapabilities()).toEqual({
        tools: {},
        logging: {},
        completions: {},
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
      });
    });

    it('lists resources in pages of 100 with a cursor, and refuses a forged cursor', async () => {
      const first = await client.listResources();
      expect(first.resources).toHaveLength(100);
      expect(first.resources[0]).toEqual({
        uri: 'notes://readme',
        name: 'readme',
        description: 'How to use the notes',
        mimeType: 'text/markdown',
      });
      expect(first.nextCursor).toEqual(expect.any(String));
      const second = await client.listResources({ cursor: first.nextCursor });
      expect(second.resources).toHaveLength(23);
      expect(second.nextCursor).toBeUndefined();
      const error = await rpcError(client.listResources({ cursor: 'bogus' }));
      expect(error.code).toBe(-32602);
      expect(error.message).toBe(
        'MCP error -32602: Invalid cursor "bogus": pass the nextCursor of the previous page.',
      );
    });

    it('lists templates and prompts with their arguments', async () => {
      expect((await client.listResourceTemplates()).resourceTemplates).toEqual([
        {
          uriTemplate: 'notes://{folder}/{id}',
          name: 'note',
          description: 'One note',
          mimeType: 'application/json',
        },
      ]);
      const { prompts } = await client.listPrompts();
      expect(prompts[0]).toEqual({
        name: 'summarize',
        description: 'Summarize a note',
        arguments: [
          { name: 'text', description: 'The text', required: true },
          { name: 'style', required: false },
        ],
      });
    });

    it('reads text, binary and template resources', async () => {
      expect(await client.readResource({ uri: 'notes://readme' })).toEqual({
        contents: [{ uri: 'notes://readme', mimeType: 'text/markdown', text: '# Notes' }],
      });
      expect((await client.readResource({ uri: 'notes://logo' })).contents).toEqual([
        { uri: 'notes://logo', mimeType: 'image/png', blob: Buffer.from(PNG_BYTES).toString('base64') },
      ]);
      const note = await client.readResource({ uri: 'notes://ideas/7' });
      expect(JSON.parse((note.contents[0] as { text: string }).text)).toEqual({
        folder: 'ideas',
        id: 7,
        idType: 'number',
      });
    });

    it('answers an unknown resource with -32002 and the URI in data', async () => {
      const error = await rpcError(client.readResource({ uri: 'nothing://here' }));
      expect(error.code).toBe(-32002);
      expect(error.data).toEqual({ uri: 'nothing://here' });
      expect(error.message).toMatch(/Resource not found: 'nothing:\/\/here'/);
    });

    it('answers a template variable that does not validate with -32602 and the issues', async () => {
      const error = await rpcError(client.readResource({ uri: 'notes://ideas/seven' }));
      expect(error.code).toBe(-32602);
      expect(error.data).toEqual({ issues: [expect.objectContaining({ path: 'id' })] });
    });

    it('answers a read the policy denies with an error, never the data', async () => {
      const error = await rpcError(client.readResource({ uri: 'notes://secret' }));
      expect(error.code).toBe(-32003);
      expect(error.message).toMatch(/denied/i);
      expect(JSON.stringify(error)).not.toContain('the secret');
    });

    it('gets prompts (text, image, embedded resource) and refuses bad arguments and unknown prompts', async () => {
      expect(
        (await client.getPrompt({ name: 'summarize', arguments: { text: 'hi', style: 'long' } })).messages,
      ).toEqual([{ role: 'user', content: { type: 'text', text: 'Summarize (long): hi' } }]);
      const image = await client.getPrompt({ name: 'with_image' });
      expect(image.messages.map((message) => message.content.type)).toEqual(['image', 'resource', 'text']);
      const missing = await rpcError(client.getPrompt({ name: 'summarize', arguments: {} }));
      expect(missing.code).toBe(-32602);
      const unknown = await rpcError(client.getPrompt({ name: 'nope' }));
      expect(unknown.code).toBe(-32602);
      expect(unknown.message).toBe(
        "MCP error -32602: Unknown prompt 'nope'. Available prompts: repeat, summarize, with_image.",
      );
    });

    it('completes template variables and prompt arguments', async () => {
      expect(
        await client.complete({
          ref: { type: 'ref/resource', uri: 'notes://{folder}/{id}' },
          argument: { name: 'folder', value: 'a' },
        }),
      ).toEqual({ completion: { values: ['archive'], total: 1, hasMore: false } });
      expect(
        await client.complete({
          ref: { type: 'ref/prompt', name: 'summarize' },
          argument: { name: 'style', value: '' },
        }),
      ).toEqual({ completion: { values: ['short', 'long'], total: 2, hasMore: false } });
      const error = await rpcError(
        client.complete({ ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'x', value: '' } }),
      );
      expect(error.code).toBe(-32602);
    });

    it('sends resources/updated to a subscribed session only until it unsubscribes', async () => {
      const other = await connect(served.mcpUrl);
      const seen: string[] = [];
      const seenByOther: string[] = [];
      client.setNotificationHandler(
        ResourceUpdatedNotificationSchema,
        (note) => void seen.push(note.params.uri),
      );
      other.setNotificationHandler(
        ResourceUpdatedNotificationSchema,
        (note) => void seenByOther.push(note.params.uri),
      );
      try {
        await client.subscribeResource({ uri: 'notes://readme' });
        // The standalone GET stream carries the notification: wait until it is open.
        await new Promise((resolve) => setTimeout(resolve, 200));
        agent.notifyResourceUpdated('notes://readme');
        agent.notifyResourceUpdated('notes://logo');
        await waitFor(() => seen.length === 1);
        expect(seen).toEqual(['notes://readme']);
        await client.unsubscribeResource({ uri: 'notes://readme' });
        agent.notifyResourceUpdated('notes://readme');
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(seen).toEqual(['notes://readme']);
        expect(seenByOther).toEqual([]);
        const error = await rpcError(client.subscribeResource({ uri: 'nothing://here' }));
        expect(error.code).toBe(-32002);
      } finally {
        await other.close();
      }
    });

    it('sends list_changed when a service with resources or prompts is added while serving', async () => {
      const methods: string[] = [];
      client.fallbackNotificationHandler = async (note: ServerNotification | { method: string }) => {
        methods.push(note.method);
      };
      class Later {
        @Prompt({ name: 'later', description: 'Added later' })
        later(): string {
          return 'later';
        }
      }
      agent.addToolset(new Later());
      await waitFor(() => methods.includes('notifications/prompts/list_changed'));
      expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toContain('later');
    });
  });

  describe('stateless HTTP', () => {
    let served: AgentServerHandle;

    beforeAll(async () => {
      served = await startAgentServer(buildAgent(), { sessionMode: 'stateless' });
    });

    afterAll(async () => {
      await served?.close();
    });

    it('lists, reads and gets prompts per request, and answers errors the same way', async () => {
      const client = await connect(served.mcpUrl);
      try {
        expect((await client.readResource({ uri: 'notes://inbox/1' })).contents[0].uri).toBe(
          'notes://inbox/1',
        );
        expect(
          (await client.getPrompt({ name: 'repeat', arguments: { times: '3' } })).messages[0].content,
        ).toEqual({
          type: 'text',
          text: 'again again again',
        });
        expect(await client.subscribeResource({ uri: 'notes://readme' })).toEqual({});
        expect((await rpcError(client.readResource({ uri: 'nothing://x' }))).code).toBe(-32002);
        expect((await client.callTool({ name: 'count_notes', arguments: {} })).structuredContent).toEqual({
          result: 2,
        });
      } finally {
        await client.close();
      }
    });
  });

  describe('capabilities by what is registered', () => {
    it('declares prompts (not resources) for an agent with prompts only, and resources (not prompts) for one with resources only', async () => {
      class OnlyPrompts {
        @Prompt({ name: 'hello', description: 'Says hello' })
        hello(): string {
          return 'hello';
        }
      }
      class OnlyResources {
        @Resource({ uri: 'only://one' })
        one(): string {
          return 'one';
        }
      }
      for (const [service, expected] of [
        [new OnlyPrompts(), { tools: {}, logging: {}, completions: {}, prompts: { listChanged: true } }],
        [
          new OnlyResources(),
          { tools: {}, logging: {}, completions: {}, resources: { subscribe: true, listChanged: true } },
        ],
      ] as const) {
        const served = await startAgentServer(new Agent({ card, transport: 'http', toolsets: [service] }));
        const client = await connect(served.mcpUrl);
        try {
          expect(client.getServerCapabilities()).toEqual(expected);
        } finally {
          await client.close();
          await served.close();
        }
      }
    });
  });

  describe('a tools-only agent', () => {
    it('declares exactly tools and logging, and answers resources/list as not found', async () => {
      class OnlyTools {
        @Tool({ name: 'ping', description: 'Ping' })
        ping(): string {
          return 'pong';
        }
      }
      const served = await startAgentServer(
        new Agent({ card, transport: 'http', toolsets: [new OnlyTools()] }),
      );
      const client = await connect(served.mcpUrl);
      try {
        expect(client.getServerCapabilities()).toEqual({ tools: {}, logging: {} });
        const error = await rpcError(
          client.request({ method: 'resources/list', params: {} }, ListResourcesResultSchema),
        );
        expect(error.code).toBe(-32601);
      } finally {
        await client.close();
        await served.close();
      }
    });
  });

  describe('stdio', () => {
    it('serves the catalog and sends updates to a subscribed client', async () => {
      const client = new Client({ name: 'catalog-stdio', version: '1.0.0' });
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [
            '-r',
            'ts-node/register/transpile-only',
            join(ROOT, 'spec', 'fixtures', 'serve', 'serve-catalog-stdio-fixture.ts'),
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
        expect((await client.readResource({ uri: 'notes://readme' })).contents[0]).toEqual({
          uri: 'notes://readme',
          mimeType: 'text/markdown',
          text: '# Notes',
        });
        expect((await client.listPrompts()).prompts).toHaveLength(3);
        await client.subscribeResource({ uri: 'notes://readme' });
        await waitFor(() => seen.length > 0);
        expect(seen[0]).toBe('notes://readme');
      } finally {
        await client.close();
      }
    }, 60_000);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for a condition');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
