import 'reflect-metadata';
import { getEventListeners } from 'node:events';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MCPToolAdapter, toLocalToolName } from '../../../lib/mcp/client';
import { ToolCancelledError } from '../../../lib/errors/tool-cancelled-error';
import { ToolDefinitionError } from '../../../lib/errors/tool-definition-error';
import { ToolInputError } from '../../../lib/errors/tool-input-error';
import { ToolRuntimeError } from '../../../lib/errors/tool-runtime-error';
import { ToolValidationError } from '../../../lib/errors/tool-validation-error';
import { RunContext } from '../../../lib/runtime/run-context';
import { toCallToolErrorResult } from '../../../lib/mcp/wire/to-call-tool-result';
import { isProcessAlive, testServerStdio } from '../../fixtures/mcp/mcp-test-servers';

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return condition();
}

jest.setTimeout(30_000);

describe('MCPToolAdapter', () => {
  const adapter = new MCPToolAdapter(testServerStdio({ env: { EXTRA_SETTING: 'on' }, timeoutMs: 10_000 }));
  const call = (name: string, args: Record<string, unknown> = {}, signal?: AbortSignal) =>
    adapter.getCallable(name)(args, { signal });
  const callCount = async () => Number(await call('call_count'));

  afterAll(() => adapter.close());

  describe('constructor', () => {
    it('opens nothing and checks nothing when constructed with a bad configuration', () => {
      expect(() => new MCPToolAdapter({ transport: 'carrier-pigeon' })).not.toThrow();
      expect(() => new MCPToolAdapter({ transport: 'stdio', command: '/no/such/binary' })).not.toThrow();
    });
  });

  describe('configuration errors at first use', () => {
    it('rejects an unknown transport with the seed message', async () => {
      await expect(new MCPToolAdapter({ transport: 'carrier-pigeon' }).listTools()).rejects.toThrow(
        new ToolInputError("Unknown transport: carrier-pigeon. Use 'stdio', 'sse' or 'http'."),
      );
    });

    it('rejects stdio without a command', async () => {
      const error = await new MCPToolAdapter({ transport: 'stdio' })
        .getTools()
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolInputError);
      expect((error as Error).message).toBe("Provide 'command' for stdio transport.");
    });

    it('rejects sse and http without a url', async () => {
      await expect(new MCPToolAdapter({ transport: 'sse' }).listTools()).rejects.toThrow(
        "Provide 'url' for SSE transport.",
      );
      await expect(new MCPToolAdapter({ transport: 'http' }).getCallable('x')()).rejects.toThrow(
        "Provide 'url' for HTTP transport.",
      );
      await expect(
        new MCPToolAdapter({ transport: 'http', url: 'ftp://127.0.0.1/' }).listTools(),
      ).rejects.toBeInstanceOf(ToolInputError);
    });

    it('rejects bad limits and session modes', async () => {
      await expect(new MCPToolAdapter({ command: 'x', timeoutMs: -1 }).listTools()).rejects.toThrow(
        "'timeoutMs' must be a positive number, got -1.",
      );
      await expect(
        new MCPToolAdapter({ command: 'x', session: 'sometimes' as never }).listTools(),
      ).rejects.toThrow("Unknown session mode: sometimes. Use 'persistent' or 'per-call'.");
      await expect(
        new MCPToolAdapter({ command: 'x', namePrefix: 'bad prefix' }).listTools(),
      ).rejects.toThrow(ToolInputError);
    });

    it('runs the command without a shell', async () => {
      const marker = join(mkdtempSync(join(tmpdir(), 'protolink-mcp-')), 'pwned');
      const adapter = new MCPToolAdapter({ command: `node; touch ${marker}`, serverName: 'shell' });
      await expect(adapter.listTools()).rejects.toThrow(
        /^Could not open a session with MCP server 'shell' \(stdio\): Error: spawn node; touch .* ENOENT/,
      );
      expect(existsSync(marker)).toBe(false);
    });

    it('reports a command that cannot be started as a ToolRuntimeError naming the server', async () => {
      const error = await new MCPToolAdapter({ command: '/no/such/binary', serverName: 'ghost' })
        .listTools()
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolRuntimeError);
      expect((error as Error).message).toMatch(
        /^Could not open a session with MCP server 'ghost' \(stdio\): .*ENOENT/,
      );
    });
  });

  describe('listTools', () => {
    it('follows nextCursor across pages and caches the frozen list', async () => {
      const tools = await adapter.listTools();
      expect(tools.length).toBeGreaterThan(16);
      expect(tools.map((tool) => tool.name)).toEqual(
        expect.arrayContaining(['add', 'echo', 'add_dynamic', 'weather.lookup']),
      );
      expect(await adapter.listTools()).toBe(tools);
      expect(Object.isFrozen(tools)).toBe(true);
      expect(Object.isFrozen(tools[0])).toBe(true);
      const refreshed = await adapter.listTools({ refresh: true });
      expect(refreshed).not.toBe(tools);
      expect(refreshed.map((tool) => tool.name)).toEqual(tools.map((tool) => tool.name));
    });

    it('gives the seed fields plus the local name and the hints', async () => {
      const echo = await adapter.getTool('echo');
      expect(echo).toMatchObject({
        name: 'echo',
        localName: 'echo',
        description: 'Echo text',
        inputTypes: { text: 'string' },
        annotations: { readOnlyHint: true },
      });
      expect(await echo?.callable({ text: 'hi' })).toBe('hi');
      expect(await adapter.getTool('nope')).toBeNull();
    });

    it('prints the seed listing to stdout (printTools)', async () => {
      const write = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
      try {
        const text = await adapter.printTools();
        expect(write).toHaveBeenCalledWith(text);
        expect(
          text.startsWith(
            '\n🛠 Available MCP Tools:\n\n🔹 Name       : add\n   Description: Add two integers\n',
          ),
        ).toBe(true);
        expect(text).toContain('   Input Types : {"a":"integer","b":"integer"}');
      } finally {
        write.mockRestore();
      }
    });

    it('drops the cache when the server sends notifications/tools/list_changed', async () => {
      expect(await adapter.getTool('dynamic')).toBeNull();
      expect(await call('add_dynamic')).toBe('added');
      let dynamic = null;
      for (let attempt = 0; attempt < 50 && !dynamic; attempt += 1) {
        dynamic = await adapter.getTool('dynamic');
        if (!dynamic) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(dynamic?.name).toBe('dynamic');
      expect(await call('dynamic')).toBe('dynamic ok');
    });

    it('stops at maxListPages when a server never stops paginating', async () => {
      const endless = new MCPToolAdapter(testServerStdio({ maxListPages: 5 }, 'endless-pages'));
      try {
        await expect(endless.listTools()).rejects.toThrow(
          "MCP server 'test' listed more than 5 pages of tools; raise maxListPages if that is expected.",
        );
      } finally {
        await endless.close();
      }
    });

    it('fails within connectTimeoutMs when a server never initializes, and stops it', async () => {
      const silent = new MCPToolAdapter(testServerStdio({ connectTimeoutMs: 1_500 }, 'never-init'));
      const error = await silent.listTools().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolRuntimeError);
      expect((error as Error).message).toMatch(
        /^Could not open a session with MCP server 'test' \(stdio\): MCP error -32001: Request timed out/,
      );
      await silent.close();
    });
  });

  describe('getTools', () => {
    it('returns fresh NativeTools with tags, the server schema unchanged, hints and metadata without secrets', async () => {
      const first = await adapter.getTools();
      const second = await adapter.getTools();
      expect(first[0]).not.toBe(second[0]);
      const echo = first.find((tool) => tool.name === 'echo');
      const listed = await adapter.getTool('echo');
      expect(echo?.tags).toEqual(['mcp']);
      expect(echo?.inputSchema).toEqual(listed?.inputSchema);
      expect(echo?.inputSchema).not.toHaveProperty('additionalProperties');
      expect(echo?.metadata.annotations).toEqual({ readOnlyHint: true });
      expect(echo?.metadata.mcp).toMatchObject({
        server: 'test',
        transport: 'stdio',
        envNames: ['NODE_PATH', 'EXTRA_SETTING'],
      });
      expect(echo?.metadata.remoteName).toBe('echo');
      expect(JSON.stringify(echo?.metadata)).not.toContain('"on"');
      expect(echo?.metadata.source).toEqual({ className: 'MCPTools_test', methodName: 'echo' });
      const structured = first.find((tool) => tool.name === 'structured');
      expect(structured?.outputSchema).toEqual({
        type: 'object',
        properties: { ok: { type: 'boolean' } },
        required: ['ok'],
      });
    });

    it('maps names providers cannot accept to stable, reversible local names', async () => {
      const tools = await adapter.getTools();
      const dotted = tools.find((tool) => tool.metadata.remoteName === 'weather.lookup');
      expect(dotted?.name).toMatch(/^weather_lookup_[0-9a-f]{8}$/);
      const long = tools.find((tool) => tool.name.startsWith('very_long_'));
      expect(long?.name.length).toBe(64);
      expect(tools.find((tool) => tool.name.startsWith('name_with_spaces_'))).toBeDefined();
      expect(await dotted?.call({ city: 'Bern' })).toBe('sunny in Bern');
      expect(await adapter.getCallable(dotted?.name as string)({ city: 'Oslo' })).toBe('sunny in Oslo');
      expect(toLocalToolName('weather.lookup')).toBe(dotted?.name);
    });

    it('sets aside tools whose schema cannot be used and keeps the others working', async () => {
      const names = (await adapter.getTools()).map((tool) => tool.name);
      expect(names).not.toEqual(expect.arrayContaining(['ref_cycle']));
      expect(names).not.toContain('bad_type');
      expect(names).not.toContain('deep_schema');
      expect(adapter.problems.every((problem) => problem instanceof ToolDefinitionError)).toBe(true);
      expect(adapter.problems.map((problem) => problem.message)).toEqual(
        expect.arrayContaining([
          `MCP tool "ref_cycle" on server 'test' has an input schema whose $ref '#/$defs/a' points only at itself through other $refs.`,
          `MCP tool "deep_schema" on server 'test' has an input schema nested deeper than 64 levels.`,
          expect.stringMatching(
            /^MCP tool "bad_type" on server 'test' has an input schema that cannot be used: .*unknown type "frobnicate"/,
          ),
        ]),
      );
      await expect(adapter.wrapTool('bad_type')).rejects.toBeInstanceOf(ToolDefinitionError);
      expect(await call('add', { a: 1, b: 2 })).toBe('3');
    });

    it('applies namePrefix and capabilities given as a function of the definition', async () => {
      const prefixed = new MCPToolAdapter(
        testServerStdio({
          namePrefix: 'srv_',
          capabilities: (definition) => (definition.annotations.readOnlyHint ? ['mcp.read'] : ['mcp.write']),
        }),
      );
      try {
        const tools = await prefixed.getTools();
        expect(tools.find((tool) => tool.name === 'srv_echo')?.capabilities).toEqual([
          'mcp.read',
          'mcp.test',
        ]);
        expect(tools.find((tool) => tool.name === 'srv_add')?.capabilities).toEqual([
          'mcp.write',
          'mcp.test',
        ]);
        expect(await prefixed.getCallable('srv_add')({ a: 2, b: 2 })).toBe('4');
        expect(await prefixed.getCallable('add')({ a: 2, b: 3 })).toBe('5');
      } finally {
        await prefixed.close();
      }
    });
  });

  describe('capabilities from an iterable', () => {
    it('keeps capabilities given as a generator through a refresh of the listing', async () => {
      function* names(): Generator<string> {
        yield 'Records.Read';
        yield 'records.read';
      }
      const adapted = new MCPToolAdapter(testServerStdio({ capabilities: names() }));
      try {
        const echo = async () => (await adapted.getTools()).find((tool) => tool.name === 'echo');
        expect((await echo())?.capabilities).toEqual(['records.read', 'mcp.test']);
        await adapted.listTools({ refresh: true });
        expect((await echo())?.capabilities).toEqual(['records.read', 'mcp.test']);
      } finally {
        await adapted.close();
      }
    });
  });

  describe('wrapTool and getCallable', () => {
    it('rejects an unknown name with the seed message', async () => {
      await expect(adapter.wrapTool('nope')).rejects.toThrow(
        new ToolInputError("Tool 'nope' not found on MCP server."),
      );
      await expect(adapter.getCallable('nope')()).rejects.toThrow("Tool 'nope' not found on MCP server.");
    });

    it('validates and coerces arguments against the server schema before sending', async () => {
      const before = await callCount();
      const error = await call('add', { a: 'x', b: 1 }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolValidationError);
      expect((error as Error).message).toContain("Invalid arguments for tool 'add'");
      expect(await callCount()).toBe(before + 1);
      expect(await call('add', { a: '2', b: 3 })).toBe('5');
    });

    it('keeps a pathological pattern from stalling the process and handles recursive $refs', async () => {
      // The server's pattern runs in the linear-time engine: enforced, and it cannot stall the process.
      await expect(call('redos', { s: `${'a'.repeat(5_000)}b` })).rejects.toThrow(
        's: must match the pattern ^(a+)+$',
      );
      expect(await call('redos', { s: 'a'.repeat(5_000) })).toBe('len 5000');
      const root = { value: 1, children: [{ value: 2, children: [{ value: 3 }] }] };
      expect(await call('tree', { root })).toBe(String(JSON.stringify(root).length));
      await expect(call('tree', { root: { value: 1, children: [{ value: 'x' }] } })).rejects.toThrow(
        /root\.children\.0\.value: must be an integer/,
      );
    });

    it('returns structured content, the first text item, or the rich parts', async () => {
      expect(await call('structured')).toEqual({ ok: true });
      expect(await call('echo', { text: 'plain' })).toBe('plain');
      // A non-text part makes the value a ToolResult with the same parts (see read-mcp-result.spec.ts).
      expect(await call('image_only')).toMatchObject({
        content: [{ type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }],
      });
    });

    it('rejects isError results with a ToolRuntimeError carrying the server text', async () => {
      await expect(call('fail')).rejects.toThrow(
        new ToolRuntimeError("MCP tool 'fail' on server 'test' returned an error: the server says no"),
      );
      await expect(call('throws')).rejects.toThrow(
        "MCP tool 'throws' on server 'test' returned an error: kaboom",
      );
    });

    it('survives a server flooding stdout with junk lines', async () => {
      expect(await call('flood', { n: 2_000 })).toBe('flooded');
      expect(await call('echo', { text: 'still here' })).toBe('still here');
    });

    it('carries 100 calls in flight on one session', async () => {
      const pid = await call('pid');
      const results = await Promise.all(
        Array.from({ length: 100 }, (_, index) => call('add', { a: index, b: 1 })),
      );
      expect(results).toEqual(Array.from({ length: 100 }, (_, index) => String(index + 1)));
      expect(await call('pid')).toBe(pid);
    });

    it('opens one session under concurrent first calls', async () => {
      const fresh = new MCPToolAdapter(testServerStdio());
      try {
        const pids = await Promise.all(Array.from({ length: 10 }, () => fresh.getCallable('pid')()));
        expect(new Set(pids).size).toBe(1);
      } finally {
        await fresh.close();
      }
    });

    it('sends notifications/cancelled and rejects at once when the signal aborts', async () => {
      const before = Number(await call('cancel_count'));
      const controller = new AbortController();
      const pending = call('slow', { ms: 20_000 }, controller.signal);
      setTimeout(() => controller.abort(), 100);
      const error = await pending.catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolCancelledError);
      expect((error as Error).message).toMatch(/^The call of MCP tool 'slow' on server 'test' was cancelled/);
      let after = before;
      for (let attempt = 0; attempt < 50 && after === before; attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        after = Number(await call('cancel_count'));
      }
      expect(after).toBe(before + 1);
    });

    it('holds one listener on a run shared by many calls, and cancels them all with it', async () => {
      const warnings: Error[] = [];
      const onWarning = (warning: Error) => warnings.push(warning);
      process.on('warning', onWarning);
      try {
        const add = await adapter.wrapTool('add');
        const slow = await adapter.wrapTool('slow');
        const finished = new RunContext({});
        const sums = await Promise.all(
          Array.from({ length: 12 }, (_, index) => add.call({ a: index, b: 1 }, { context: finished })),
        );
        expect(sums.map(Number)).toEqual(Array.from({ length: 12 }, (_, index) => index + 1));
        expect(getEventListeners(finished.signal, 'abort')).toHaveLength(0);
        const shared = new RunContext({});
        const pending = Array.from({ length: 12 }, () =>
          slow.call({ ms: 20_000 }, { context: shared }).catch((caught: unknown) => caught),
        );
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(getEventListeners(shared.signal, 'abort').length).toBeLessThanOrEqual(1);
        shared.cancel('stop everything');
        for (const error of await Promise.all(pending)) expect(error).toBeInstanceOf(ToolCancelledError);
        await new Promise((resolve) => setImmediate(resolve));
        expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);
      } finally {
        process.off('warning', onWarning);
      }
    });

    it('never sends a call whose signal is already aborted', async () => {
      const before = await callCount();
      await expect(call('add', { a: 1, b: 1 }, AbortSignal.abort())).rejects.toBeInstanceOf(
        ToolCancelledError,
      );
      expect(await callCount()).toBe(before + 1);
    });
  });

  describe('limits', () => {
    const limited = new MCPToolAdapter(
      testServerStdio({
        maxResultChars: 100,
        maxMessageBytes: 100_000,
        timeoutMs: 1_000,
        maxTotalTimeoutMs: 2_000,
      }),
    );
    afterAll(() => limited.close());

    it('cuts text results longer than maxResultChars', async () => {
      const text = (await limited.getCallable('huge')({ n: 2_000 })) as string;
      expect(text).toBe(`${'x'.repeat(100)}… [cut: 1900 more characters]`);
    });

    it('rejects a call that outlives timeoutMs, and the session keeps working', async () => {
      const error = await limited
        .getCallable('slow')({ ms: 10_000 })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolRuntimeError);
      expect((error as Error).message).toBe(
        "MCP tool 'slow' on server 'test' did not answer within 1000 ms (timeoutMs); the server was sent notifications/cancelled.",
      );
      expect(await limited.getCallable('add')({ a: 1, b: 2 })).toBe('3');
    });

    it('keeps a call alive while it reports progress, up to maxTotalTimeoutMs', async () => {
      expect(await limited.getCallable('progress')({ ms: 1_200 })).toBe('progressed');
      const error = await limited
        .getCallable('progress')({ ms: 20_000 })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolRuntimeError);
      expect((error as Error).message).toMatch(
        /^MCP tool 'progress' on server 'test' (failed: The call did not finish|did not finish) within 2000 ms \(maxTotalTimeoutMs\) although it kept reporting progress/,
      );
    });

    it('ends a call at maxTotalTimeoutMs without progress when it is shorter than timeoutMs', async () => {
      const shortTotal = new MCPToolAdapter(testServerStdio({ timeoutMs: 5_000, maxTotalTimeoutMs: 300 }));
      try {
        const started = Date.now();
        const error = await shortTotal
          .getCallable('slow')({ ms: 10_000 })
          .catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(ToolRuntimeError);
        expect((error as Error).message).toBe(
          "MCP tool 'slow' on server 'test' failed: The call did not finish within 300 ms (maxTotalTimeoutMs); the server was sent notifications/cancelled.",
        );
        expect(Date.now() - started).toBeLessThan(5_000);
      } finally {
        await shortTotal.close();
      }
    });

    it('refuses a message larger than maxMessageBytes at once, then opens a new session', async () => {
      const error = await limited
        .getCallable('huge_line')({ n: 300_000 })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolRuntimeError);
      expect((error as Error).message).toBe(
        "MCP tool 'huge_line' on server 'test' failed: The MCP server 'test' sent a message larger than 100000 bytes; it was refused.",
      );
      expect(await limited.getCallable('add')({ a: 1, b: 1 })).toBe('2');
    });
  });

  describe('sessions', () => {
    it('does not retry a call that failed mid-flight; the next call opens a new session; idempotent tools are retried once', async () => {
      const crashing = new MCPToolAdapter(testServerStdio());
      try {
        const pid = await crashing.getCallable('pid')();
        const error = await crashing
          .getCallable('crash')()
          .catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(ToolRuntimeError);
        expect((error as Error).message).toMatch(
          /^The connection to MCP server 'test' closed while tool 'crash' was running \(the server may have crashed\)\. The call was not retried/,
        );
        const next = await crashing.getCallable('pid')();
        expect(next).not.toBe(pid);
        const marker = join(mkdtempSync(join(tmpdir(), 'protolink-mcp-')), 'crashed');
        expect(await crashing.getCallable('crash_once')({ marker })).toBe('survived');
        expect(await crashing.getCallable('pid')()).not.toBe(next);
      } finally {
        await crashing.close();
      }
    });

    it('does not retry a call whose JSON-RPC error mentions HTTP 404 and a session', async () => {
      const log = join(mkdtempSync(join(tmpdir(), 'protolink-mcp-')), 'calls');
      const error = await call('rpc_error', {
        log,
        code: 404,
        message: 'upstream answered HTTP 404: session not found',
      }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolRuntimeError);
      expect((error as Error).message).toBe(
        "MCP tool 'rpc_error' on server 'test' failed: MCP error 404: MCP error 404: upstream answered HTTP 404: session not found",
      );
      expect(readFileSync(log, 'utf8')).toBe('called\n');
    });

    it("keeps a crashed server's stderr out of the message and the served error, as serverStderr", async () => {
      const crashing = new MCPToolAdapter(testServerStdio());
      try {
        const error = await crashing
          .getCallable('crash_loud')()
          .catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(ToolRuntimeError);
        expect((error as Error).message).toMatch(
          /^The connection to MCP server 'test' closed while tool 'crash_loud' was running .* The server wrote to stderr; see error\.serverStderr\.$/,
        );
        expect(JSON.stringify(toCallToolErrorResult(error, 'crash_loud'))).not.toContain('hunter2');
        expect((error as { serverStderr?: string }).serverStderr).toContain('postgres://app:hunter2@db');
      } finally {
        await crashing.close();
      }
    });

    it('keeps the stderr of a server that fails to start out of the message, as serverStderr', async () => {
      const error = await new MCPToolAdapter(testServerStdio({}, 'loud-exit'))
        .listTools()
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolRuntimeError);
      expect((error as Error).message).toMatch(
        /^Could not open a session with MCP server 'test' \(stdio\): .*\. The server wrote to stderr; see error\.serverStderr\.$/,
      );
      expect((error as Error).message).not.toContain('hunter2');
      expect((error as { serverStderr?: string }).serverStderr).toContain('at connect (/srv/db.js:1:1)');
    });

    it('closes a per-call session that opens after its call was cancelled', async () => {
      const pidFile = join(mkdtempSync(join(tmpdir(), 'protolink-mcp-')), 'pids');
      const slow = new MCPToolAdapter(
        testServerStdio({ session: 'per-call', env: { PID_FILE: pidFile } }, 'slow-init'),
      );
      const tool = await slow.wrapTool('pid');
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      const error = await tool.call({}, { signal: controller.signal }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolCancelledError);
      const pids = () => readFileSync(pidFile, 'utf8').trim().split('\n').map(Number);
      try {
        expect(
          await waitUntil(() => pids().length === 2 && pids().every((pid) => !isProcessAlive(pid)), 10_000),
        ).toBe(true);
      } finally {
        // without the fix the late server would outlive the test run
        for (const pid of pids()) if (isProcessAlive(pid)) process.kill(pid, 'SIGKILL');
      }
    });

    it("opens one session per call with session: 'per-call'", async () => {
      const perCall = new MCPToolAdapter(testServerStdio({ session: 'per-call' }));
      const first = await perCall.getCallable('pid')();
      const second = await perCall.getCallable('pid')();
      expect(first).not.toBe(second);
      expect(isProcessAlive(Number(first))).toBe(false);
    });

    it('stops the stdio server on close() and through Symbol.asyncDispose', async () => {
      const closing = new MCPToolAdapter(testServerStdio());
      const pid = Number(await closing.getCallable('pid')());
      expect(isProcessAlive(pid)).toBe(true);
      await closing.close();
      expect(isProcessAlive(pid)).toBe(false);
      const disposing = new MCPToolAdapter(testServerStdio());
      const disposedPid = Number(await disposing.getCallable('pid')());
      await (disposing as unknown as Record<symbol, () => Promise<void>>)[
        (Symbol as unknown as { asyncDispose: symbol }).asyncDispose
      ]();
      expect(isProcessAlive(disposedPid)).toBe(false);
    });

    it('gives the child only the minimal environment plus the configured variables', async () => {
      process.env.PROTOLINK_TEST_SECRET = 'do-not-leak';
      const scoped = new MCPToolAdapter(testServerStdio({ env: { EXTRA_SETTING: 'yes' } }));
      try {
        const report = JSON.parse((await scoped.getCallable('env')()) as string) as {
          names: string[];
          extra: string;
        };
        expect(report.extra).toBe('yes');
        expect(report.names).not.toContain('PROTOLINK_TEST_SECRET');
        expect(
          report.names.every((name) =>
            ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'NODE_PATH', 'EXTRA_SETTING'].includes(name),
          ),
        ).toBe(true);
      } finally {
        delete process.env.PROTOLINK_TEST_SECRET;
        await scoped.close();
      }
    });
  });
});
