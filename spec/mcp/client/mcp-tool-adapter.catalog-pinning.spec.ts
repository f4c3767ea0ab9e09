import 'reflect-metadata';
import { ToolDefinitionError } from '../../../lib/errors/tool-definition-error';
import { ToolInputError } from '../../../lib/errors/tool-input-error';
import { MCPToolAdapter } from '../../../lib/mcp/client';
import type {
  MCPCatalogChange,
  MCPCatalogPin,
  MCPToolAdapterOptions,
  MCPToolPinData,
} from '../../../lib/mcp/client';
import { catalogServerStdio } from '../../fixtures/mcp/catalog-server-options';

jest.setTimeout(60_000);

/** Waits until `check` passes (a list_changed notification is handled asynchronously). */
async function eventually(check: () => Promise<boolean> | boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('MCPToolAdapter pinning of resources, templates and prompts', () => {
  const adapters: MCPToolAdapter[] = [];
  const open = (extra: Partial<MCPToolAdapterOptions> = {}, changed?: string) => {
    const adapter = new MCPToolAdapter(catalogServerStdio(extra, 'normal', changed));
    adapters.push(adapter);
    return adapter;
  };
  const change = (adapter: MCPToolAdapter, what: string) => adapter.getCallable('change')({ what });
  const requests = async (adapter: MCPToolAdapter) => Number(await adapter.getCallable('requests')());

  afterAll(async () => {
    await Promise.all(adapters.map((adapter) => adapter.close()));
  });

  describe("by default ('refuse')", () => {
    it('refuses a prompt whose description changed after list_changed until acceptChanges', async () => {
      const changes: MCPCatalogChange[] = [];
      const adapter = open();
      adapter.on('promptChanged', (event) => changes.push(event));
      expect((await adapter.getPrompt('summarize', { uri: 'memo://a' })).messages).toHaveLength(2);

      await change(adapter, 'prompt');
      await eventually(
        async () => !(await adapter.listPrompts()).some((prompt) => prompt.name === 'summarize'),
      );
      const error = await adapter
        .getPrompt('summarize', { uri: 'memo://a' })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolDefinitionError);
      expect((error as Error).message).toContain(
        'MCP prompt "summarize" on server \'catalog\' changed its definition since it was pinned (description), so it is refused.',
      );
      expect((error as Error).message).toContain('adapter.acceptChanges(["summarize"])');
      expect(await requests(adapter)).toBe(1);
      expect(adapter.catalogProblems.map((problem) => problem.message)).toEqual([(error as Error).message]);

      expect(changes).toHaveLength(1);
      expect(changes[0]).toMatchObject({
        kind: 'prompt',
        name: 'summarize',
        serverName: 'catalog',
        action: 'refused',
        fields: ['description'],
      });
      expect(changes[0].details[0]).toMatch(
        /^description: "Summarizes a document" → "Summarizes a document\. <IMPORTANT>/,
      );
      expect(adapter.pendingCatalogChanges).toEqual(changes);
      // Listing again reports nothing new.
      await adapter.listPrompts({ refresh: true });
      expect(changes).toHaveLength(1);

      expect(adapter.acceptChanges(['summarize'])).toEqual(['summarize']);
      expect(adapter.pendingCatalogChanges).toEqual([]);
      const [prompt] = await adapter.listPrompts();
      expect(prompt.description).toContain('<IMPORTANT>');
      expect((await adapter.getPrompt('summarize', { uri: 'memo://a' })).messages).toHaveLength(2);
    });

    it('describes a new required argument, and checks arguments against the accepted definition', async () => {
      const adapter = open();
      await adapter.listPrompts();
      await change(adapter, 'argument');
      await eventually(() => adapter.listPrompts().then(() => adapter.pendingCatalogChanges.length === 1));
      const [pending] = adapter.pendingCatalogChanges;
      expect(pending.fields).toEqual(['arguments']);
      expect(pending.details).toEqual([
        'arguments: new required argument "cc": {"description":"Who else gets it","name":"cc","required":true}',
      ]);
      adapter.acceptChanges();
      await expect(adapter.getPrompt('summarize', { uri: 'memo://a' })).rejects.toThrow('cc: is required');
    });

    it('refuses a resource whose description changed, and a URI of a changed template', async () => {
      const adapter = open();
      const events: MCPCatalogChange[] = [];
      adapter.on('resourceChanged', (event) => events.push(event));
      await adapter.readResource('memo://notes/1');
      await adapter.readResource('memo://notes/9');

      await change(adapter, 'resource');
      await eventually(async () => (await adapter.listResources()).length === 6);
      await expect(adapter.readResource('memo://notes/1')).rejects.toThrow(
        /^MCP resource "memo:\/\/notes\/1" on server 'catalog' changed its definition since it was pinned \(description\)/,
      );
      expect(events.map((event) => [event.kind, event.name])).toEqual([['resource', 'memo://notes/1']]);

      await change(adapter, 'template');
      await eventually(async () => (await adapter.listResourceTemplates()).length === 1);
      const error = await adapter.readResource('memo://notes/9').catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolDefinitionError);
      expect((error as Error).message).toMatch(
        /^MCP resource template "memo:\/\/notes\/\{id\}" on server 'catalog' changed its definition/,
      );
      expect(events.map((event) => event.kind)).toEqual(['resource', 'resourceTemplate']);
      expect(adapter.acceptChanges(['memo://notes/{id}'])).toEqual(['memo://notes/{id}']);
      expect((await adapter.readResource('memo://notes/9')).contents).toHaveLength(1);
    });

    it('does not count a new lastModified or size as a change', async () => {
      const adapter = open();
      const first = await adapter.listResources();
      await new Promise((resolve) => setTimeout(resolve, 5));
      const again = await adapter.listResources({ refresh: true });
      expect(again[0].annotations.lastModified).not.toBe(first[0].annotations.lastModified);
      expect(adapter.pendingCatalogChanges).toEqual([]);
    });

    it('refuses to accept a name with nothing pending, listing what is', async () => {
      const adapter = open();
      await adapter.listPrompts();
      await change(adapter, 'prompt');
      await eventually(() => adapter.listPrompts().then(() => adapter.pendingCatalogChanges.length === 1));
      const error = (() => {
        try {
          adapter.acceptChanges(['greet']);
        } catch (caught) {
          return caught;
        }
        return undefined;
      })();
      expect(error).toBeInstanceOf(ToolInputError);
      expect((error as Error).message).toBe(
        'MCP tool, resource or prompt "greet" on server \'catalog\' has no definition change waiting for acceptance; pending: prompt "summarize".',
      );
      expect(adapter.pendingCatalogChanges).toHaveLength(1);
      expect(adapter.acceptChanges([{ kind: 'prompt', name: 'summarize' }])).toEqual(['summarize']);
    });
  });

  it("'warn' uses and pins the new definition and writes a PROTOLINK_MCP_PROMPT_CHANGED warning", async () => {
    const emitWarning = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const adapter = open({ onDefinitionChange: 'warn' });
      await adapter.listPrompts();
      await change(adapter, 'prompt');
      await eventually(async () => (await adapter.listPrompts())[0].description.includes('<IMPORTANT>'));
      expect(emitWarning).toHaveBeenCalledTimes(1);
      const [message, options] = emitWarning.mock.calls[0] as [string, { code: string }];
      expect(options.code).toBe('PROTOLINK_MCP_PROMPT_CHANGED');
      expect(message).toMatch(
        /^MCP prompt "summarize" on server 'catalog' changed its definition \(description\); the new definition is used\./,
      );
      expect(adapter.pendingCatalogChanges).toEqual([]);
      expect((await adapter.getPrompt('summarize', { uri: 'memo://a' })).messages).toHaveLength(2);
    } finally {
      emitWarning.mockRestore();
    }
  });

  it("'accept' uses the new definition and tells onCatalogChanged listeners", async () => {
    const changes: MCPCatalogChange[] = [];
    const adapter = open({ onDefinitionChange: 'accept', onCatalogChanged: (event) => changes.push(event) });
    await adapter.listResources();
    await change(adapter, 'resource');
    // A change is found when the list is read again (the server's list_changed dropped the cached one).
    await eventually(() => adapter.listResources().then(() => changes.length === 1));
    expect(changes[0]).toMatchObject({ kind: 'resource', action: 'accepted', name: 'memo://notes/1' });
    expect((await adapter.readResource('memo://notes/1')).contents).toHaveLength(1);
  });

  describe('saved pins', () => {
    it('exports resource, template and prompt pins beside tool pins, and refuses what changed since, after a restart', async () => {
      const first = open();
      await Promise.all([
        first.listTools(),
        first.listResources(),
        first.listResourceTemplates(),
        first.listPrompts(),
      ]);
      const pins = JSON.parse(JSON.stringify(first.exportPins())) as Array<MCPToolPinData>;
      expect(pins.filter((pin) => pin.kind === undefined).map((pin) => pin.name)).toEqual([
        'change',
        'requests',
        'pid',
      ]);
      const summarize = pins.find(
        (pin) => pin.kind === 'prompt' && pin.name === 'summarize',
      ) as MCPCatalogPin;
      expect(summarize).toEqual({
        kind: 'prompt',
        name: 'summarize',
        localName: 'summarize',
        sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        definition: {
          name: 'summarize',
          title: 'Summarize',
          description: 'Summarizes a document',
          arguments: [
            { name: 'uri', description: 'The document', required: true },
            { name: 'style', description: 'bullet or prose', required: false },
          ],
        },
      });
      const note = pins.find(
        (pin) => pin.kind === 'resource' && pin.name === 'memo://notes/1',
      ) as MCPCatalogPin;
      expect(note.definition).toEqual({
        uri: 'memo://notes/1',
        name: 'note-1',
        title: 'First note',
        description: 'The first note',
        mimeType: 'text/plain',
        annotations: { audience: ['user'] },
      });
      expect(pins.some((pin) => pin.kind === 'resourceTemplate' && pin.name === 'memo://notes/{id}')).toBe(
        true,
      );

      // The server changed while the application was down.
      const restored = open({ pins }, 'prompt');
      expect((await restored.listPrompts()).map((prompt) => prompt.name)).not.toContain('summarize');
      await expect(restored.getPrompt('summarize', { uri: 'x' })).rejects.toThrow(ToolDefinitionError);
      // Exported again before anything was listed, the saved pins are all still there.
      expect(open({ pins }).exportPins()).toEqual(pins);
    });

    it('still loads pins saved before resources and prompts were pinned (no kind)', async () => {
      const source = open();
      await source.listTools();
      const toolPins = source
        .exportPins()
        .map(({ name, sha256, definition }) => ({ name, sha256, definition }));
      const adapter = open({ pins: toolPins });
      expect((await adapter.listTools()).map((tool) => tool.name)).toEqual(['change', 'requests', 'pid']);
      expect((await adapter.listPrompts()).length).toBe(4);
    });

    it('refuses a hand-edited catalog pin, and one with an unknown kind, at first use', async () => {
      const source = open();
      await source.listPrompts();
      const [pin] = source.exportPins().filter((saved) => 'kind' in saved) as MCPCatalogPin[];
      const edited = { ...pin, definition: { ...pin.definition, description: 'Trust me' } };
      await expect(open({ pins: [edited] }).listPrompts()).rejects.toThrow(
        'pins[0] (prompt "summarize") of MCP server \'catalog\' does not match its own definition: the sha256 differs. Export the pins again with adapter.exportPins() instead of editing them.',
      );
      await expect(open({ pins: [{ ...pin, kind: 'widget' } as never] }).listPrompts()).rejects.toThrow(
        `pins[0] of MCP server 'catalog' has the unknown kind "widget"; use 'tool' (or no kind), 'resource', 'resourceTemplate' or 'prompt' as adapter.exportPins() wrote it.`,
      );
      await expect(open({ pins: [{ ...pin, name: 'other' }] }).listPrompts()).rejects.toThrow(
        "pins[0] of MCP server 'catalog' must be { kind, name, sha256, definition } as adapter.exportPins() returns it.",
      );
    });
  });
});
