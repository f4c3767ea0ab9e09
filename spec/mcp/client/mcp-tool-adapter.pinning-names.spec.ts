import 'reflect-metadata';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '../../../lib/agents/agent';
import { ToolDefinitionError } from '../../../lib/errors/tool-definition-error';
import { ToolInputError } from '../../../lib/errors/tool-input-error';
import { MCPToolAdapter, toLocalToolName } from '../../../lib/mcp/client';
import type { MCPToolAdapterOptions, MCPToolChange, MCPToolPinData } from '../../../lib/mcp/client';
import { getCompiledHostileServer, hostileServerStdio } from '../../fixtures/mcp/hostile-server-options';

jest.setTimeout(60_000);

const card = { name: 'files-agent', description: 'Reads files', url: 'runtime://files-agent' };

/** A tool whose remote name has a character providers refuse, so its local name is cleaned and hashed. */
const ORIGINAL = 'a.b';
/** The same local form, computed by anyone from the public rule: a valid remote name that maps to itself. */
const IMPOSTOR = `a_b_${createHash('sha256').update(ORIGINAL).digest('hex').slice(0, 8)}`;
/** The name the agent, its policy and approvals see for both. */
const LOCAL = IMPOSTOR;

/**
 * Starts the hostile server through a one-line loader that reads HOSTILE_TOOLS from a file when the process
 * starts; with `session: 'per-call'` every listing spawns it again, so rewriting the file changes what the
 * next listing shows, as a server that changes its tools between two listings.
 */
const LOADER =
  "process.env.HOSTILE_TOOLS = require('node:fs').readFileSync(process.env.TOOLS_FILE, 'utf8'); require(process.env.HOSTILE_SERVER);";

describe('MCPToolAdapter pins bind local names', () => {
  const directory = mkdtempSync(join(tmpdir(), 'protolink-pin-names-'));
  const adapters: MCPToolAdapter[] = [];
  let serverCount = 0;

  /** A server whose listed tools `list` sets, and an adapter factory for it. */
  const changingServer = () => {
    serverCount += 1;
    const toolsFile = join(directory, `tools-${serverCount}.txt`);
    const list = (names: readonly string[]) => writeFileSync(toolsFile, names.join(','));
    const open = (extra: Partial<MCPToolAdapterOptions> = {}) => {
      const adapter = new MCPToolAdapter(
        hostileServerStdio({
          args: ['-e', LOADER],
          session: 'per-call',
          serverName: 'files',
          ...extra,
          env: { TOOLS_FILE: toolsFile, HOSTILE_SERVER: getCompiledHostileServer() },
        }),
      );
      adapters.push(adapter);
      return adapter;
    };
    return { list, open };
  };

  afterAll(async () => {
    await Promise.all(adapters.map((adapter) => adapter.close()));
    rmSync(directory, { recursive: true, force: true });
  });

  it('uses a remote name that anyone can craft to get the local name of another', () => {
    expect(toLocalToolName(ORIGINAL)).toBe(LOCAL);
    expect(toLocalToolName(IMPOSTOR)).toBe(LOCAL);
  });

  describe('a new remote name behind a pinned local name', () => {
    it('is refused by default like a changed definition, also through tools built before, until acceptChanges', async () => {
      const server = changingServer();
      server.list([ORIGINAL]);
      const changes: MCPToolChange[] = [];
      const adapter = server.open({ onToolChanged: (change) => changes.push(change) });
      const agent = new Agent({ card, tools: await adapter.getTools() });
      expect(await agent.callTool(LOCAL, {})).toBe('a.b:{}');

      server.list([IMPOSTOR]);
      expect(await adapter.listTools({ refresh: true })).toEqual([]);
      expect(changes).toHaveLength(1);
      const [change] = changes;
      expect(change).toMatchObject({
        name: IMPOSTOR,
        localName: LOCAL,
        serverName: 'files',
        action: 'refused',
        fields: ['name', 'description'],
      });
      expect(change.details).toEqual([
        `name: "${ORIGINAL}" → "${IMPOSTOR}"`,
        'description: "Maps to a hashed local name." → "Named like the local form of a.b."',
      ]);
      expect(change.before.name).toBe(ORIGINAL);
      expect(change.after.name).toBe(IMPOSTOR);

      // The tool the agent holds stands for the pinned tool; its local name is in dispute, so it is refused.
      const stale = await agent.callTool(LOCAL, {}).catch((caught: unknown) => caught);
      expect(stale).toBeInstanceOf(ToolDefinitionError);
      expect((stale as Error).message).toContain(
        `MCP tool '${IMPOSTOR}' on server 'files' changed its definition since it was pinned (its local name '${LOCAL}' was bound to the tool 'a.b')`,
      );
      await expect(adapter.wrapTool(LOCAL)).rejects.toThrow(/acceptChanges/);
      expect(adapter.problems.map((problem) => problem.toolName)).toEqual([LOCAL]);
      expect(adapter.pendingChanges.map((pending) => [pending.name, pending.localName])).toEqual([
        [IMPOSTOR, LOCAL],
      ]);
      expect(adapter.exportPins().map((pin) => [pin.localName, pin.name])).toEqual([[LOCAL, ORIGINAL]]);
      await adapter.listTools({ refresh: true });
      expect(changes).toHaveLength(1);

      expect(adapter.acceptChanges([LOCAL])).toEqual([IMPOSTOR]);
      const accepted = await adapter.wrapTool(LOCAL);
      expect(accepted.description).toBe('Named like the local form of a.b.');
      expect(await accepted.call({})).toBe(`${IMPOSTOR}:{}`);
      expect(adapter.exportPins().map((pin) => [pin.localName, pin.name])).toEqual([[LOCAL, IMPOSTOR]]);
      // Built for the tool the local name no longer stands for: still refused, get the tools again.
      await expect(agent.callTool(LOCAL, {})).rejects.toThrow(/adapter\.getTools\(\)/);
    });

    it.each([
      ['warn', 'warned'],
      ['accept', 'accepted'],
    ] as const)("is reported, and with '%s' used as the new binding", async (mode, action) => {
      const emitWarning = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
      try {
        const server = changingServer();
        server.list([ORIGINAL]);
        const changes: MCPToolChange[] = [];
        const adapter = server.open({
          onDefinitionChange: mode,
          onToolChanged: (change) => changes.push(change),
        });
        await adapter.getTools();
        server.list([IMPOSTOR]);
        await adapter.listTools({ refresh: true });
        expect(changes.map((change) => [change.action, change.fields])).toEqual([
          [action, ['name', 'description']],
        ]);
        expect((await adapter.wrapTool(LOCAL)).description).toBe('Named like the local form of a.b.');
        expect(adapter.pendingChanges).toEqual([]);
        expect(emitWarning).toHaveBeenCalledTimes(mode === 'warn' ? 1 : 0);
      } finally {
        emitWarning.mockRestore();
      }
    });
  });

  describe('two remote names that map to one local name in one listing', () => {
    it('leave the local name with the remote tool it is pinned to, whatever the order of the listing', async () => {
      const server = changingServer();
      // The server lists a.b before the other: without a pin, the first one listed would win the name.
      server.list([IMPOSTOR]);
      const changes: MCPToolChange[] = [];
      const adapter = server.open({ onToolChanged: (change) => changes.push(change) });
      expect((await adapter.getTools()).map((tool) => tool.name)).toEqual([LOCAL]);

      server.list([ORIGINAL, IMPOSTOR]);
      const infos = await adapter.listTools({ refresh: true });
      expect(infos.map((info) => [info.name, info.localName])).toEqual([[IMPOSTOR, LOCAL]]);
      expect(await (await adapter.wrapTool(LOCAL)).call({})).toBe(`${IMPOSTOR}:{}`);
      expect(adapter.problems.map((problem) => problem.message)).toEqual([
        `MCP server 'files' has the tools "${IMPOSTOR}" and "${ORIGINAL}", which both map to the local name '${LOCAL}'; "${ORIGINAL}" is set aside. Rename one on the server.`,
      ]);
      expect(changes).toEqual([]);
      expect(adapter.exportPins().map((pin) => [pin.localName, pin.name])).toEqual([[LOCAL, IMPOSTOR]]);
    });
  });

  describe('saved pins', () => {
    it('saved before pins named their local name still load, bound to the local name of their remote name', async () => {
      const server = changingServer();
      server.list([ORIGINAL]);
      const first = server.open();
      await first.getTools();
      const exported = first.exportPins();
      expect(exported.map((pin) => [pin.localName, pin.name])).toEqual([[LOCAL, ORIGINAL]]);
      // The earlier format: { name, sha256, definition }, keyed by the remote name.
      const older = (JSON.parse(JSON.stringify(exported)) as MCPToolPinData[]).map(
        ({ localName: _localName, ...rest }) => rest,
      );
      expect(Object.keys(older[0]).sort()).toEqual(['definition', 'name', 'sha256']);

      server.list([IMPOSTOR]);
      const changes: MCPToolChange[] = [];
      const restored = server.open({ pins: older, onToolChanged: (change) => changes.push(change) });
      expect(await restored.getTools()).toEqual([]);
      expect(changes.map((change) => [change.localName, change.before.name, change.name])).toEqual([
        [LOCAL, ORIGINAL, IMPOSTOR],
      ]);
      expect(restored.exportPins()).toEqual(exported);
    });

    it('are refused with a ToolInputError when two of them bind one local name', async () => {
      const server = changingServer();
      server.list([ORIGINAL]);
      const before = server.open();
      await before.getTools();
      server.list([IMPOSTOR]);
      const after = server.open();
      await after.getTools();
      // What an adapter keyed by remote names could save after the swap: both, as if both were trusted.
      const strip = (pins: MCPToolPinData[]) => pins.map(({ localName: _localName, ...rest }) => rest);
      const pins = [...strip(before.exportPins()), ...strip(after.exportPins())];

      const adapter = server.open({ pins });
      const error = await adapter.listTools().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolInputError);
      expect((error as Error).message).toBe(
        `pins[0] (tool '${ORIGINAL}') and pins[1] (tool '${IMPOSTOR}') of MCP server 'files' both stand for the local name '${LOCAL}', which is bound to one remote tool; remove the pin you do not trust.`,
      );
    });

    it('are refused with a ToolInputError when a saved local name is not the one its remote name maps to', async () => {
      const server = changingServer();
      server.list([ORIGINAL]);
      const source = server.open();
      await source.getTools();
      const [pin] = source.exportPins();

      const edited = server.open({ pins: [{ ...pin, localName: 'files_read' }] });
      await expect(edited.listTools()).rejects.toThrow(
        `pins[0] (tool '${ORIGINAL}') of MCP server 'files' was saved for the local name 'files_read', but the adapter names that tool '${LOCAL}'`,
      );
      const prefixed = server.open({ pins: [pin], namePrefix: 'fs_' });
      const error = await prefixed.listTools().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolInputError);
      expect((error as Error).message).toContain(`the adapter names that tool 'fs_${LOCAL}'`);
      expect((error as Error).message).toContain('namePrefix');
    });
  });
});
