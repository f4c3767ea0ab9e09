import 'reflect-metadata';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolDefinitionError } from '../../lib/errors/tool-definition-error';
import { InMemoryTaskStore } from '../../lib/tasks/in-memory-task-store';
import { RunContext } from '../../lib/runtime/run-context';
import { SERVE_STDIO_OPTIONS, serveStdio } from '../../lib/server/serve-stdio';
import type { ServeStdioOptions } from '../../lib/server/serve-stdio';
import { createFakeAgent } from '../fixtures/serve/fake-agent';

const ROOT = join(__dirname, '..', '..');
const FIXTURE = join(ROOT, 'spec', 'fixtures', 'serve', 'serve-stdio-fixture.ts');

describe('serveStdio', () => {
  describe('over a subprocess', () => {
    it('serves the agent to the SDK client: lists, calls, denies and rejects unknown tools', async () => {
      const client = new Client({ name: 'spec-stdio-client', version: '1.0.0' });
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: ['-r', 'ts-node/register/transpile-only', FIXTURE],
          cwd: ROOT,
          stderr: 'pipe',
        }),
      );
      try {
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name)).toContain('book');
        expect(await client.callTool({ name: 'add', arguments: { a: 40, b: 2 } })).toEqual({
          content: [{ type: 'text', text: '42' }],
          structuredContent: { result: 42 },
        });
        const denied = await client.callTool({ name: 'delete_records', arguments: {} });
        expect(denied.isError).toBe(true);
        expect(JSON.stringify(denied.content)).toMatch(/denied by policy/);
        await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toThrow(/Unknown tool: nope/);
      } finally {
        await client.close();
      }
    }, 60_000);
  });

  describe('in process', () => {
    function pipes() {
      const stdin = new PassThrough();
      const stdout = new PassThrough();
      const lines: any[] = [];
      let buffer = '';
      stdout.on('data', (chunk: Buffer) => {
        buffer += chunk.toString('utf8');
        let index: number;
        while ((index = buffer.indexOf('\n')) >= 0) {
          lines.push(JSON.parse(buffer.slice(0, index)));
          buffer = buffer.slice(index + 1);
        }
      });
      return { stdin, stdout, lines };
    }

    it('answers newline-delimited JSON-RPC on the given streams and resolves closed when stdin ends', async () => {
      const agent = createFakeAgent();
      const { stdin, stdout, lines } = pipes();
      const handle = await serveStdio(agent, { stdin, stdout });
      stdin.write(
        `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } })}\n`,
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(lines[0]).toEqual({
        jsonrpc: '2.0',
        id: 1,
        result: { content: [{ type: 'text', text: 'hi' }] },
      });
      expect(agent.log.contexts[0].sessionId).toBeNull();
      stdin.end();
      await handle.closed;
    });

    it('passes the stdio transport to buildContext and stops on close()', async () => {
      const seen: string[] = [];
      const { stdin, stdout, lines } = pipes();
      const { RunContext } = await import('../../lib/runtime/run-context');
      const handle = await serveStdio(createFakeAgent(), {
        stdin,
        stdout,
        buildContext: (info) => {
          seen.push(info.transport);
          return new RunContext({ signal: info.signal });
        },
      });
      stdin.write(
        `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'add', arguments: { a: 1, b: 2 } } })}\n`,
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(lines[0].result).toEqual({
        content: [{ type: 'text', text: '3' }],
        structuredContent: { result: 3 },
      });
      expect(seen).toEqual(['stdio']);
      await handle.close();
      await handle.closed;
    });
  });

  describe('options that are not known', () => {
    it('takes every option at once', async () => {
      // Required<…>: the compiler refuses this literal if ServeStdioOptions gains or loses an option.
      const everyOption: Required<ServeStdioOptions> = {
        name: 'spec',
        version: '1.0.0',
        instructions: 'Use the tools.',
        maxConcurrentCalls: 2,
        sharedCallGate: { limit: 4, tryEnter: () => true, leave: () => undefined },
        buildContext: (info) => new RunContext({ signal: info.signal }),
        onError: () => undefined,
        onCallCanceled: () => undefined,
        interactionTimeoutMs: 1_000,
        serverRequests: false,
        taskStore: new InMemoryTaskStore(),
        maxTaskTtlMs: 60_000,
        taskPollIntervalMs: 100,
        maxSubscriptions: 10,
        stdin: new PassThrough(),
        stdout: new PassThrough(),
      };
      expect([...SERVE_STDIO_OPTIONS.names].sort()).toEqual(Object.keys(everyOption).sort());
      const handle = await serveStdio(createFakeAgent(), everyOption);
      await handle.close();
    });

    it.each([
      [{ url: 'http://127.0.0.1:0' }, "serveStdio() option 'url' is not known: stdio serves on stdin/stdout"],
      [{ max_concurrent_calls: 2 }, "use 'maxConcurrentCalls' instead"],
      [{ instruction: 'x' }, "serveStdio() option 'instruction' is not known; did you mean 'instructions'?"],
    ])('refuses %j before serving, naming it', async (extra, message) => {
      const served = serveStdio(createFakeAgent(), {
        stdin: new PassThrough(),
        stdout: new PassThrough(),
        ...extra,
      } as ServeStdioOptions);
      await expect(served).rejects.toThrow(ToolDefinitionError);
      await expect(served).rejects.toThrow(message);
    });
  });
});
