import 'reflect-metadata';
import { ToolCancelledError } from '../../../lib/errors/tool-cancelled-error';
import { ToolDefinitionError } from '../../../lib/errors/tool-definition-error';
import { ToolInputError } from '../../../lib/errors/tool-input-error';
import { ToolRuntimeError } from '../../../lib/errors/tool-runtime-error';
import { ToolValidationError } from '../../../lib/errors/tool-validation-error';
import { MCPToolAdapter } from '../../../lib/mcp/client';
import type { MCPToolAdapterOptions } from '../../../lib/mcp/client';
import { catalogServerStdio, startCatalogHttpServer } from '../../fixtures/mcp/catalog-server-options';
import type { RunningCatalogServer } from '../../fixtures/mcp/catalog-server-options';

jest.setTimeout(60_000);

describe('MCPToolAdapter resources and prompts: limits and errors', () => {
  const adapters: MCPToolAdapter[] = [];
  const open = (extra: Partial<MCPToolAdapterOptions> = {}, mode?: string) => {
    const adapter = new MCPToolAdapter(catalogServerStdio(extra, mode));
    adapters.push(adapter);
    return adapter;
  };
  const requests = async (adapter: MCPToolAdapter) => Number(await adapter.getCallable('requests')());

  afterAll(async () => {
    await Promise.all(adapters.map((adapter) => adapter.close()));
  });

  describe('a server that did not declare resources or prompts', () => {
    it('rejects every resource and prompt method with a ToolInputError naming the server and the capability', async () => {
      const adapter = open({}, 'no-catalog');
      const resources = await adapter.listResources().catch((caught: unknown) => caught);
      expect(resources).toBeInstanceOf(ToolInputError);
      expect((resources as Error).message).toBe(
        "MCP server 'catalog' does not offer resources: it did not declare the 'resources' capability when the " +
          'session opened, so the adapter cannot list the resources.',
      );
      await expect(adapter.listResourceTemplates()).rejects.toThrow(/does not offer resources/);
      await expect(adapter.readResource('memo://notes/1')).rejects.toThrow(/does not offer resources/);
      await expect(adapter.listPrompts()).rejects.toThrow(
        "MCP server 'catalog' does not offer prompts: it did not declare the 'prompts' capability when the session " +
          'opened, so the adapter cannot list the prompts.',
      );
      await expect(adapter.getPrompt('summarize')).rejects.toThrow(ToolInputError);
      // Its tools still work.
      expect(await requests(adapter)).toBe(0);
    });
  });

  describe('listing', () => {
    it('follows nextCursor across pages', async () => {
      const adapter = open();
      expect((await adapter.listResources()).map((resource) => resource.uri)).toEqual([
        'memo://notes/1',
        'memo://report.pdf',
        'memo://big',
        'memo://mixed',
        'memo://malformed',
        'memo://missing',
        'memo://slow',
      ]);
    });

    it('stops at maxListPages with a ToolRuntimeError', async () => {
      const adapter = open({ maxListPages: 3 }, 'endless');
      const error = await adapter.listResources().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolRuntimeError);
      expect((error as Error).message).toBe(
        "MCP server 'catalog' listed more than 3 pages of resources; raise maxListPages if that is expected.",
      );
    });

    it('sets aside malformed, oversized, too deep and repeated entries, keeping the others usable', async () => {
      const adapter = open({}, 'hostile');
      const resources = await adapter.listResources();
      expect(resources.map((resource) => resource.uri)).toEqual([
        'memo://notes/1',
        'memo://report.pdf',
        'memo://big',
        'memo://mixed',
        'memo://malformed',
        'memo://missing',
        'memo://slow',
      ]);
      const templates = await adapter.listResourceTemplates();
      expect(templates.map((template) => template.name)).toEqual(['note', 'log']);
      const prompts = await adapter.listPrompts();
      expect(prompts.map((prompt) => prompt.name)).toEqual(['summarize', 'greet', 'rich', 'malformed']);
      const messages = adapter.catalogProblems.map((problem) => problem.message);
      expect(adapter.catalogProblems.every((problem) => problem instanceof ToolDefinitionError)).toBe(true);
      expect(messages).toEqual(
        expect.arrayContaining([
          "The resource at position 7 of the listing of MCP server 'catalog' is not a JSON object; it is set aside.",
          expect.stringMatching(
            /^The resource at position 8 of the listing of MCP server 'catalog' does not match the MCP schema of a resource \(uri: /,
          ),
          'MCP resource "memo://huge" on server \'catalog\' is 300052 characters of JSON (at most 262144, maxSchemaChars); it is set aside.',
          'MCP resource "memo://deep" on server \'catalog\' is nested deeper than 64 levels; it is set aside.',
          'MCP resource "memo://notes/1" on server \'catalog\' is listed twice; only the first definition is used.',
          expect.stringMatching(
            /^MCP resource "memo:\/\/bad-priority" on server 'catalog' does not match the MCP schema of a resource \(annotations\.priority: /,
          ),
          "MCP resource template \"memo://broken/{id\" on server 'catalog' has a URI template that cannot be used: The URI template has an unclosed '{'.; it is set aside.",
          'MCP prompt "twice" on server \'catalog\' declares the argument "a" twice; it is set aside.',
          "The prompt at position 5 of the listing of MCP server 'catalog' has an empty name; it is set aside.",
          'MCP prompt "summarize" on server \'catalog\' is listed twice; only the first definition is used.',
          expect.stringMatching(
            /^MCP prompt "bad-arguments" on server 'catalog' does not match the MCP schema of a prompt \(arguments: /,
          ),
        ]),
      );
      // The first definition of a repeated key is the one used.
      expect(resources[0].description).toBe('The first note');
      // A set-aside entry is refused with its problem.
      await expect(adapter.readResource('memo://huge')).rejects.toThrow(/maxSchemaChars/);
      await expect(adapter.getPrompt('twice', { a: 'x' })).rejects.toThrow(ToolDefinitionError);
    });

    it('reads a server that declares resources without resources/templates/list as having no templates', async () => {
      const adapter = open({}, 'no-templates');
      expect(await adapter.listResourceTemplates()).toEqual([]);
      await expect(adapter.readResource('memo://notes/7')).rejects.toThrow(
        /matches none of its resource templates;/,
      );
    });
  });

  describe('readResource', () => {
    it('returns a blob with its MIME type, and several items of one read', async () => {
      const adapter = open();
      expect(await adapter.readResource('memo://report.pdf')).toEqual({
        uri: 'memo://report.pdf',
        contents: [{ uri: 'memo://report.pdf', mimeType: 'application/pdf', blob: 'JVBERg==' }],
        truncated: false,
      });
      expect((await adapter.readResource('memo://mixed')).contents).toEqual([
        { uri: 'memo://mixed/a', text: 'b'.repeat(30) },
        { uri: 'memo://mixed/b', mimeType: 'application/octet-stream', blob: 'AAAAAAAAAAAAAAAAAAAAAAAA' },
      ]);
    });

    it('reads a URI of a template, also one with query variables', async () => {
      const adapter = open();
      expect((await adapter.readResource('memo://notes/42')).contents).toEqual([
        { uri: 'memo://notes/42', mimeType: 'text/plain', text: 'Contents of memo://notes/42' },
      ]);
      await adapter.readResource('memo://logs/monday?level=warn');
      await expect(adapter.readResource('memo://notes/42/secret')).rejects.toThrow(ToolInputError);
    });

    it('refuses a URI the server does not offer without sending a request', async () => {
      const adapter = open();
      await expect(adapter.readResource('file:///etc/passwd')).rejects.toThrow(
        /^The resource "file:\/\/\/etc\/passwd" is not listed by MCP server 'catalog' and matches none of its resource templates \("memo:\/\/notes\/\{id\}", "memo:\/\/logs\/\{day\}\{\?level\}"\)/,
      );
      expect(await requests(adapter)).toBe(0);
    });

    it('cuts text beyond maxResultChars with a marker and says so', async () => {
      const adapter = open({ maxResultChars: 100 });
      const reading = await adapter.readResource('memo://big');
      expect(reading.truncated).toBe(true);
      expect(reading.contents[0]).toEqual({
        uri: 'memo://big',
        mimeType: 'text/plain',
        text: `${'a'.repeat(100)}… [cut: 4900 more characters]`,
      });
      // The budget covers the whole read: the second text item gets what the first left.
      const mixed = await open({ maxResultChars: 20 }).readResource('memo://mixed');
      expect(mixed.truncated).toBe(true);
      expect('text' in mixed.contents[0] && mixed.contents[0].text).toBe(
        `${'b'.repeat(20)}… [cut: 10 more characters]`,
      );
    });

    it('rejects a malformed item (a blob that is not base64) with a ToolRuntimeError', async () => {
      const error = await open()
        .readResource('memo://malformed')
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolRuntimeError);
      expect((error as Error).message).toMatch(
        /^MCP server 'catalog', asked for the resource "memo:\/\/malformed", sent a malformed contents\[0\]: .*base64/,
      );
    });

    it("passes the server's error on as a ToolRuntimeError naming the resource and the server", async () => {
      const error = await open()
        .readResource('memo://missing')
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolRuntimeError);
      expect((error as Error).message).toBe(
        'Could not read the resource "memo://missing" of MCP server \'catalog\': MCP error -32002: Resource not found: memo://missing',
      );
      expect((error as ToolRuntimeError).retryable).toBe(false);
    });

    it('rejects with a ToolRuntimeError when the server does not answer within timeoutMs', async () => {
      const error = await open({ timeoutMs: 300 })
        .readResource('memo://slow')
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolRuntimeError);
      expect((error as Error).message).toBe(
        'MCP server \'catalog\' did not answer within 300 ms (timeoutMs) when asked to read the resource "memo://slow"; the server was sent notifications/cancelled.',
      );
    });

    it('rejects with a ToolCancelledError when the signal aborts, and at once when it already has', async () => {
      const adapter = open();
      await adapter.listResources();
      const controller = new AbortController();
      const reading = adapter.readResource('memo://slow', { signal: controller.signal });
      setTimeout(() => controller.abort('user left'), 100);
      const started = Date.now();
      const error = await reading.catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolCancelledError);
      expect((error as ToolCancelledError).reason).toBe('user left');
      expect(Date.now() - started).toBeLessThan(5_000);
      const before = await requests(adapter);
      await expect(adapter.readResource('memo://notes/1', { signal: controller.signal })).rejects.toThrow(
        ToolCancelledError,
      );
      expect(await requests(adapter)).toBe(before);
    });
  });

  describe('getPrompt', () => {
    it('sends checked arguments and returns user and assistant messages with the description', async () => {
      const adapter = open();
      expect(await adapter.getPrompt('summarize', { uri: 'memo://notes/1', style: 'bullet' })).toEqual({
        name: 'summarize',
        description: 'A summary request',
        messages: [
          { role: 'user', content: { type: 'text', text: 'Summarize memo://notes/1 as bullet.' } },
          {
            role: 'assistant',
            content: { type: 'text', text: 'Arguments: {"uri":"memo://notes/1","style":"bullet"}' },
          },
        ],
        truncated: false,
      });
    });

    it('checks arguments before anything is sent', async () => {
      const adapter = open();
      const error = await adapter
        .getPrompt('summarize', { style: 'bullet' })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolValidationError);
      expect((error as Error).message).toBe(
        'Invalid arguments for prompt "summarize" on MCP server \'catalog\': uri: is required',
      );
      await expect(adapter.getPrompt('greet', { name: 'Ada' })).rejects.toThrow(
        'name: is not an argument of this prompt (it takes none)',
      );
      await expect(adapter.getPrompt('greet', 'Ada' as unknown as Record<string, string>)).rejects.toThrow(
        'The arguments of prompt "greet" on MCP server \'catalog\' must be an object of strings',
      );
      expect(await requests(adapter)).toBe(0);
    });

    it('keeps images, embedded resources and resource links, sharing the text budget', async () => {
      const result = await open({ maxResultChars: 10 }).getPrompt('rich');
      expect(result.messages.map((message) => message.content)).toEqual([
        { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
        {
          type: 'resource',
          resource: { uri: 'memo://notes/1', text: `${'c'.repeat(10)}… [cut: 30 more characters]` },
        },
        { type: 'resource_link', uri: 'memo://report.pdf', name: 'report' },
      ]);
      expect(result.truncated).toBe(true);
    });

    it('rejects a message whose role is not user or assistant', async () => {
      const error = await open()
        .getPrompt('malformed')
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolRuntimeError);
      expect((error as Error).message).toBe(
        "MCP server 'catalog', asked for the prompt \"malformed\", sent messages[0] without the role 'user' or 'assistant'.",
      );
    });

    it('refuses an empty name', async () => {
      await expect(open().getPrompt('')).rejects.toThrow(
        "getPrompt() needs the name of a prompt of MCP server 'catalog' (a non-empty string).",
      );
    });
  });

  describe('sessions', () => {
    it('works per call, and over streamable HTTP on 127.0.0.1', async () => {
      const perCall = open({ session: 'per-call' });
      expect((await perCall.getPrompt('greet')).messages).toHaveLength(1);
      const server: RunningCatalogServer = await startCatalogHttpServer();
      try {
        const overHttp = open({ transport: 'http', url: server.url });
        expect((await overHttp.readResource('memo://notes/5')).contents[0]).toMatchObject({
          uri: 'memo://notes/5',
        });
        expect((await overHttp.listPrompts()).map((prompt) => prompt.name)).toContain('summarize');
      } finally {
        await server.stop();
      }
    });

    it('reads again on a new session after the stdio server died', async () => {
      const adapter = open();
      await adapter.listResources();
      const pid = Number(await adapter.getCallable('pid')());
      process.kill(pid, 'SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await adapter.readResource('memo://notes/2')).contents).toHaveLength(1);
      expect(Number(await adapter.getCallable('pid')())).not.toBe(pid);
    });
  });
});
