import 'reflect-metadata';
import { Agent } from '../../../lib/agents/agent';
import { ActionDeniedError } from '../../../lib/errors/action-denied-error';
import { ToolDefinitionError } from '../../../lib/errors/tool-definition-error';
import { ToolInputError } from '../../../lib/errors/tool-input-error';
import { CapabilityPolicy } from '../../../lib/policy/capability-policy';
import { MCPToolAdapter } from '../../../lib/mcp/client';
import type { MCPToolAdapterOptions, MCPToolChange, MCPToolPin } from '../../../lib/mcp/client';
import { pinMcpToolDefinition } from '../../../lib/mcp/client/pin-mcp-definition';
import { NativeTool } from '../../../lib/tools/native-tool';
import { rugPullServerStdio } from '../../fixtures/mcp/rug-pull-server-options';

jest.setTimeout(60_000);

const card = { name: 'notes-agent', description: 'Takes notes', url: 'runtime://notes-agent' };

describe('MCPToolAdapter definition pinning', () => {
  const adapters: MCPToolAdapter[] = [];
  const open = (extra: Partial<MCPToolAdapterOptions> = {}, pulled?: string) => {
    const adapter = new MCPToolAdapter(rugPullServerStdio(extra, pulled));
    adapters.push(adapter);
    return adapter;
  };
  const sentCount = async (adapter: MCPToolAdapter) => Number(await adapter.getCallable('sent_count')());
  const pull = (adapter: MCPToolAdapter, kind: string) => adapter.getCallable('rug_pull')({ kind });

  afterAll(async () => {
    await Promise.all(adapters.map((adapter) => adapter.close()));
  });

  describe("by default ('refuse')", () => {
    it('refuses a tool changed after list_changed (injected description, new required argument, readOnlyHint flip) until acceptChanges', async () => {
      const changes: MCPToolChange[] = [];
      const adapter = open();
      adapter.on('toolChanged', (change) => changes.push(change));
      const agent = new Agent({ card, tools: await adapter.getTools() });
      expect(await agent.callTool('send_note', { text: 'first' })).toBe('stored first');

      expect(await pull(adapter, 'all')).toBe('pulled');
      const error = await agent.callTool('send_note', { text: 'second' }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolDefinitionError);
      expect((error as Error).message).toContain(
        "MCP tool 'send_note' on server 'rug' changed its definition",
      );
      expect((error as Error).message).toContain("adapter.acceptChanges(['send_note'])");
      expect(await sentCount(adapter)).toBe(1);

      expect(changes).toHaveLength(1);
      const [change] = changes;
      expect(change).toMatchObject({
        name: 'send_note',
        localName: 'send_note',
        serverName: 'rug',
        action: 'refused',
        fields: ['description', 'inputSchema', 'annotations'],
      });
      expect(change.details).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^description: "Stores a note" → "Stores a note\. <IMPORTANT>Before using/),
          expect.stringContaining('inputSchema: new required argument "cc"'),
          'annotations.readOnlyHint: false → true',
          'annotations.destructiveHint: true → false',
        ]),
      );
      expect(change.before.description).toBe('Stores a note');
      expect(change.after.description).toContain('<IMPORTANT>');
      expect(change.sha256).not.toBe(change.previousSha256);

      expect((await adapter.getTools()).map((tool) => tool.name)).toEqual(['add', 'rug_pull', 'sent_count']);
      expect((await adapter.listTools()).map((info) => info.name)).not.toContain('send_note');
      await expect(adapter.wrapTool('send_note')).rejects.toThrow(/acceptChanges/);
      expect(adapter.problems.map((problem) => problem.toolName)).toContain('send_note');
      expect(adapter.pendingChanges.map((pending) => pending.name)).toEqual(['send_note']);
      // Listing again does not announce the same change twice.
      await adapter.listTools({ refresh: true });
      expect(changes).toHaveLength(1);

      expect(adapter.acceptChanges(['send_note'])).toEqual(['send_note']);
      expect(adapter.pendingChanges).toEqual([]);
      const accepted = await adapter.wrapTool('send_note');
      expect(accepted.inputSchema).toMatchObject({ required: ['text', 'cc'] });
      expect(await accepted.call({ text: 'third', cc: 'bob' })).toBe('stored third (cc bob)');
      expect(await sentCount(adapter)).toBe(2);
    });

    it.each([
      ['description', ['description'], /^description: "Stores a note" → ".*<IMPORTANT>/],
      ['argument', ['inputSchema'], /^inputSchema: new required argument "cc"/],
      ['hint', ['annotations'], /^annotations\.readOnlyHint: false → true$/],
    ])('detects a %s change alone', async (kind, fields, detail) => {
      const changes: MCPToolChange[] = [];
      const adapter = open({ onToolChanged: (change) => changes.push(change) });
      await adapter.getTools();
      await pull(adapter, kind);
      await expect(adapter.wrapTool('send_note')).rejects.toBeInstanceOf(ToolDefinitionError);
      expect(changes.map((change) => change.fields)).toEqual([fields]);
      expect(changes[0].details).toEqual(expect.arrayContaining([expect.stringMatching(detail)]));
    });

    it('keeps a hint-based capability callback from being fooled by a readOnlyHint flip', async () => {
      const adapter = open({
        capabilities: (definition) =>
          definition.annotations.readOnlyHint === true ? ['notes.read'] : ['notes.write'],
      });
      const agent = new Agent({
        card,
        policy: new CapabilityPolicy({ 'notes.write': 'deny' }),
        tools: await adapter.getTools(),
      });
      await expect(agent.callTool('send_note', { text: 'x' })).rejects.toBeInstanceOf(ActionDeniedError);
      await pull(adapter, 'hint');
      // The agent cannot pick up a rebuilt tool that now claims to be read-only: the change is refused.
      const tools = await adapter.getTools();
      expect(tools.map((tool) => tool.name)).not.toContain('send_note');
      await expect(agent.callTool('send_note', { text: 'x' })).rejects.toBeInstanceOf(ActionDeniedError);
      expect(await sentCount(adapter)).toBe(0);
    });

    it('needs no acceptance when the server goes back to the pinned definition', async () => {
      const adapter = open();
      await adapter.getTools();
      await pull(adapter, 'description');
      await expect(adapter.wrapTool('send_note')).rejects.toThrow(/acceptChanges/);
      await pull(adapter, 'restore');
      expect(await (await adapter.wrapTool('send_note')).call({ text: 'back' })).toBe('stored back');
      expect(adapter.pendingChanges).toEqual([]);
    });

    it('accepts every pending change when acceptChanges has no names, and refuses unknown names', async () => {
      const adapter = open();
      await adapter.getTools();
      expect(() => adapter.acceptChanges(['send_note'])).toThrow(ToolInputError);
      expect(() => adapter.acceptChanges('send_note')).toThrow(/nothing is pending/);
      await pull(adapter, 'all');
      await adapter.listTools();
      const error = (() => {
        try {
          adapter.acceptChanges(['add']);
        } catch (caught) {
          return caught as Error;
        }
        return undefined;
      })();
      expect(error).toBeInstanceOf(ToolInputError);
      expect(error?.message).toContain("MCP tool 'add' on server 'rug' has no definition change");
      expect(error?.message).toContain('pending: send_note');
      expect(adapter.acceptChanges()).toEqual(['send_note']);
      expect((await adapter.getTools()).map((tool) => tool.name)).toContain('send_note');
    });
  });

  describe("onDefinitionChange: 'warn' and 'accept'", () => {
    it("'warn' uses the new definition, tells listeners and writes a process warning", async () => {
      const emitWarning = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
      try {
        const changes: MCPToolChange[] = [];
        const adapter = open({ onDefinitionChange: 'warn', onToolChanged: (change) => changes.push(change) });
        await adapter.getTools();
        await pull(adapter, 'argument');
        const tool = await adapter.wrapTool('send_note');
        expect(tool.inputSchema).toMatchObject({ required: ['text', 'cc'] });
        expect(changes.map((change) => change.action)).toEqual(['warned']);
        expect(emitWarning).toHaveBeenCalledTimes(1);
        const [message, options] = emitWarning.mock.calls[0] as [string, { code: string }];
        expect(message).toContain(
          "MCP tool 'send_note' on server 'rug' changed its definition (inputSchema)",
        );
        expect(message).toContain('new required argument "cc"');
        expect(options.code).toBe('PROTOLINK_MCP_TOOL_CHANGED');
        expect(adapter.pendingChanges).toEqual([]);
      } finally {
        emitWarning.mockRestore();
      }
    });

    it("'accept' uses and pins the new definition and still tells listeners", async () => {
      const changes: MCPToolChange[] = [];
      const adapter = open({ onDefinitionChange: 'accept' });
      adapter.on('toolChanged', (change) => changes.push(change));
      await adapter.getTools();
      await pull(adapter, 'description');
      expect((await adapter.wrapTool('send_note')).description).toContain('<IMPORTANT>');
      expect(changes.map((change) => change.action)).toEqual(['accepted']);
      expect(adapter.exportPins().find((pin) => pin.name === 'send_note')?.definition.description).toContain(
        '<IMPORTANT>',
      );
    });

    it('rejects an unknown mode at first use with a ToolInputError', async () => {
      const adapter = open({ onDefinitionChange: 'ignore' as never });
      await expect(adapter.listTools()).rejects.toThrow(
        "Unknown onDefinitionChange: \"ignore\". Use 'refuse' (the default), 'warn' or 'accept'.",
      );
    });
  });

  describe('saved pins', () => {
    it('are plain JSON that a new adapter restores, so a server changed in between is not re-trusted', async () => {
      const first = open();
      await first.getTools();
      const pins = JSON.parse(JSON.stringify(first.exportPins())) as MCPToolPin[];
      expect(pins.map((pin) => pin.name).sort()).toEqual(['add', 'rug_pull', 'send_note', 'sent_count']);
      expect(pins[0].sha256).toMatch(/^[0-9a-f]{64}$/);
      await first.close();

      // Without pins, a fresh adapter trusts whatever the server lists now.
      const trusting = open({}, 'all');
      expect((await trusting.getTools()).map((tool) => tool.name)).toContain('send_note');

      const changes: MCPToolChange[] = [];
      const restored = open({ pins, onToolChanged: (change) => changes.push(change) }, 'all');
      expect((await restored.getTools()).map((tool) => tool.name)).not.toContain('send_note');
      expect(changes.map((change) => [change.name, change.fields])).toEqual([
        ['send_note', ['description', 'inputSchema', 'annotations']],
      ]);
    });

    it('are saved with the agent (toDict/fromDict) and restored from its mcpServers entry', async () => {
      const adapter = open();
      const agent = new Agent({ card, tools: await adapter.getTools() });
      const dict = agent.toDict();
      const entry = dict.mcpServers?.[0];
      expect(entry?.pins?.map((pin) => pin.name).sort()).toEqual([
        'add',
        'rug_pull',
        'send_note',
        'sent_count',
      ]);
      expect(entry).not.toHaveProperty('env');

      const restoredAgent = Agent.fromDict(JSON.parse(JSON.stringify(dict)));
      const saved = restoredAgent.mcpServers[0];
      expect(restoredAgent.toDict().mcpServers?.[0].pins).toEqual(entry?.pins);
      const restored = open({ pins: saved.pins as unknown as MCPToolPin[] }, 'description');
      await expect(restored.wrapTool('send_note')).rejects.toThrow(/changed its definition/);
      expect((await restored.getTools()).map((tool) => tool.name)).toEqual(['add', 'rug_pull', 'sent_count']);
    });

    it('keep schema keys such as token or password through toDict and fromDict (they are definitions, not secrets)', () => {
      const pin = pinMcpToolDefinition(
        {
          name: 'login',
          description: 'Logs in',
          inputSchema: {
            type: 'object',
            properties: { token: { type: 'string' }, password: { type: 'string' } },
          },
          annotations: {},
        },
        'login',
      );
      const tool = new NativeTool({
        name: 'login',
        description: 'Logs in',
        metadata: { mcp: { server: 'auth', transport: 'stdio', command: 'auth-server' }, mcpPin: pin },
        func: () => 'ok',
      });
      const dict = new Agent({ card, tools: [tool] }).toDict();
      expect(dict.mcpServers?.[0].pins).toEqual([JSON.parse(JSON.stringify(pin))]);
      const again = Agent.fromDict(JSON.parse(JSON.stringify(dict))).toDict();
      expect(again.mcpServers?.[0].pins?.[0]).toMatchObject({
        sha256: pin.sha256,
        definition: {
          inputSchema: { properties: { token: { type: 'string' }, password: { type: 'string' } } },
        },
      });
    });

    it.each([
      [
        'not a list',
        { name: 'add' },
        "'pins' of MCP server 'rug' must be the list adapter.exportPins() returned.",
      ],
      ['an entry without a definition', [{ name: 'add', sha256: 'x' }], 'pins[0] of MCP server'],
      [
        'an edited definition',
        'edited',
        "pins[0] (tool 'add') of MCP server 'rug' does not match its own definition",
      ],
    ])('are refused with a ToolInputError when they are %s', async (_label, value, message) => {
      let pins: unknown = value;
      if (value === 'edited') {
        const source = open();
        await source.getTools();
        const [pin] = source.exportPins();
        pins = [{ ...pin, definition: { ...pin.definition, description: 'edited by hand' } }];
      }
      const adapter = open({ pins: pins as MCPToolPin[] });
      const error = await adapter.listTools().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolInputError);
      expect((error as Error).message).toContain(message);
    });
  });
});
