import 'reflect-metadata';
import { ToolInputError } from '../../../lib/errors/tool-input-error';
import { ToolValidationError } from '../../../lib/errors/tool-validation-error';
import { MCPToolAdapter } from '../../../lib/mcp/client';
import type { MCPToolAdapterOptions } from '../../../lib/mcp/client';
import { everythingStdio, startHttpServer } from '../../fixtures/mcp/mcp-test-servers';
import type { RunningHttpServer } from '../../fixtures/mcp/mcp-test-servers';

jest.setTimeout(60_000);

const STATIC_DOC = 'demo://resource/static/document/architecture.md';

// The same expectations over stdio and over streamable HTTP (127.0.0.1), against server-everything.
describe.each([
  ['stdio', async () => ({ options: everythingStdio(), stop: async () => undefined })],
  [
    'http',
    async () => {
      const server: RunningHttpServer = await startHttpServer('everything-http');
      const options: MCPToolAdapterOptions = { transport: 'http', url: server.url, serverName: 'everything' };
      return { options, stop: () => server.stop() };
    },
  ],
])('MCPToolAdapter resources and prompts of server-everything over %s', (_transport, start) => {
  let adapter: MCPToolAdapter;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    const started = await start();
    stop = started.stop;
    adapter = new MCPToolAdapter(started.options);
  });

  afterAll(async () => {
    await adapter.close();
    await stop();
  });

  describe('listResources', () => {
    it('lists every static document with its URI, name, description and MIME type, frozen', async () => {
      const resources = await adapter.listResources();
      expect(resources.length).toBeGreaterThanOrEqual(5);
      expect(resources.find((resource) => resource.uri === STATIC_DOC)).toEqual({
        uri: STATIC_DOC,
        name: 'architecture.md',
        description: 'Static document file exposed from /docs: architecture.md',
        mimeType: 'text/markdown',
        annotations: {},
      });
      expect(Object.isFrozen(resources)).toBe(true);
      expect(Object.isFrozen(resources[0])).toBe(true);
      expect(await adapter.listResources()).toBe(resources);
      expect(await adapter.listResources({ refresh: true })).not.toBe(resources);
    });
  });

  describe('listResourceTemplates', () => {
    it('lists the text and blob templates', async () => {
      const templates = await adapter.listResourceTemplates();
      expect(templates.map((template) => template.uriTemplate)).toEqual([
        'demo://resource/dynamic/text/{resourceId}',
        'demo://resource/dynamic/blob/{resourceId}',
      ]);
      expect(templates[1]).toMatchObject({
        name: 'Dynamic Blob Resource',
        mimeType: 'application/octet-stream',
      });
    });
  });

  describe('readResource', () => {
    it('reads a listed resource as text with its MIME type', async () => {
      const reading = await adapter.readResource(STATIC_DOC);
      expect(reading.uri).toBe(STATIC_DOC);
      expect(reading.truncated).toBe(false);
      expect(reading.contents).toHaveLength(1);
      expect(reading.contents[0]).toMatchObject({ uri: STATIC_DOC, mimeType: 'text/markdown' });
      expect('text' in reading.contents[0] && reading.contents[0].text).toContain('Architecture');
    });

    it('reads a URI of a listed template, text or blob', async () => {
      const text = await adapter.readResource('demo://resource/dynamic/text/7');
      expect(text.contents[0]).toMatchObject({
        uri: 'demo://resource/dynamic/text/7',
        mimeType: 'text/plain',
      });
      expect('text' in text.contents[0] && text.contents[0].text).toMatch(/^Resource 7: This is a plaintext/);

      const blob = await adapter.readResource('demo://resource/dynamic/blob/3');
      const [item] = blob.contents;
      expect('blob' in item && Buffer.from(item.blob, 'base64').toString()).toMatch(
        /^Resource 3: This is a base64 blob/,
      );
    });

    it('refuses a URI the server neither lists nor templates before sending anything', async () => {
      const error = await adapter.readResource('file:///etc/passwd').catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolInputError);
      expect((error as Error).message).toBe(
        `The resource "file:///etc/passwd" is not listed by MCP server 'everything' and matches none of its resource ` +
          'templates ("demo://resource/dynamic/text/{resourceId}", "demo://resource/dynamic/blob/{resourceId}"); ' +
          'readResource() reads only what the server lists (see adapter.listResources() and adapter.listResourceTemplates()).',
      );
      // A template variable is one path segment: another segment after it is not the template's.
      await expect(adapter.readResource('demo://resource/dynamic/text/7/../../../x')).rejects.toThrow(
        ToolInputError,
      );
    });

    it('refuses an empty or non-string URI', async () => {
      await expect(adapter.readResource('')).rejects.toThrow(
        "readResource() needs the URI of a resource of MCP server 'everything' (a non-empty string).",
      );
      await expect(adapter.readResource(42 as unknown as string)).rejects.toThrow(ToolInputError);
    });
  });

  describe('listPrompts', () => {
    it('lists the prompts with their declared arguments', async () => {
      const prompts = await adapter.listPrompts();
      expect(prompts.map((prompt) => prompt.name)).toEqual(
        expect.arrayContaining(['simple-prompt', 'args-prompt', 'resource-prompt']),
      );
      expect(prompts.find((prompt) => prompt.name === 'args-prompt')).toEqual({
        name: 'args-prompt',
        title: 'Arguments Prompt',
        description: 'A prompt with two arguments, one required and one optional',
        arguments: [
          { name: 'city', description: 'Name of the city', required: true },
          // server-everything's SDK drops the description of `z.string().describe(…).optional()`.
          { name: 'state', description: '', required: false },
        ],
      });
    });
  });

  describe('getPrompt', () => {
    it('returns the messages of a prompt without arguments', async () => {
      expect(await adapter.getPrompt('simple-prompt')).toEqual({
        name: 'simple-prompt',
        messages: [
          { role: 'user', content: { type: 'text', text: 'This is a simple prompt without arguments.' } },
        ],
        truncated: false,
      });
    });

    it('sends the arguments given; null for an optional one means absent', async () => {
      const result = await adapter.getPrompt('args-prompt', {
        city: 'Athens',
        state: null as unknown as string,
      });
      expect(result.messages).toEqual([
        { role: 'user', content: { type: 'text', text: "What's weather in Athens?" } },
      ]);
    });

    it('keeps an embedded resource as a resource part', async () => {
      const result = await adapter.getPrompt('resource-prompt', { resourceType: 'Text', resourceId: '2' });
      expect(result.messages[1]).toEqual({
        role: 'user',
        content: {
          type: 'resource',
          resource: {
            uri: 'demo://resource/dynamic/text/2',
            mimeType: 'text/plain',
            text: expect.stringMatching(/^Resource 2: This is a plaintext resource/),
          },
        },
      });
    });

    it('lists every argument problem (missing required, unknown, not a string) in one ToolValidationError', async () => {
      const error = await adapter
        .getPrompt('args-prompt', { zip: '10557', state: 7 } as unknown as Record<string, string>)
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolValidationError);
      expect((error as ToolValidationError).issues).toEqual([
        { path: 'zip', message: 'is not an argument of this prompt (it takes: city, state)' },
        { path: 'state', message: 'must be a string (MCP prompt arguments are strings); got number' },
        { path: 'city', message: 'is required' },
      ]);
      expect((error as Error).message).toMatch(
        /^Invalid arguments for prompt "args-prompt" on MCP server 'everything': zip: is not an argument/,
      );
    });

    it('refuses a prompt the server does not list, naming the ones it does', async () => {
      const error = await adapter.getPrompt('nope').catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolInputError);
      expect((error as Error).message).toMatch(
        /^MCP prompt "nope" not found on server 'everything'; it offers: "simple-prompt", "args-prompt", /,
      );
    });
  });
});
