import 'reflect-metadata';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Command } from 'commander';
import type { CliIo } from '../../lib/cli/cli-io';
import { addServeCommand } from '../../lib/cli/commands/serve-command';
import { ToolInputError } from '../../lib/errors/tool-input-error';
import { connectHttpClient, waitFor } from '../fixtures/serve/http-helpers';

const ROOT = join(__dirname, '..', '..');
const FIXTURES = join(ROOT, 'spec', 'fixtures', 'serve');

/** Every serve a test started: stopped after each test, so one that fails leaves nothing listening. */
const started: { stop(): void; done: Promise<unknown> }[] = [];
afterEach(async () => {
  for (const cli of started.splice(0)) {
    cli.stop();
    await cli.done.catch(() => undefined);
  }
});

function run(args: string[], env: Record<string, string | undefined> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  // One line per entry: serve announces itself in one write of several lines.
  const io: CliIo = { out: (text) => out.push(...text.split('\n')), err: (text) => err.push(text) };
  const controller = new AbortController();
  const program = new Command('protolink').exitOverride();
  addServeCommand(program, io, { signal: controller.signal, env });
  const done = program.parseAsync(['serve', ...args], { from: 'user' });
  const cli = { out, err, done, stop: () => controller.abort() };
  started.push(cli);
  return cli;
}

async function endpointOf(out: string[]): Promise<string> {
  await waitFor(() => out.some((line) => line.includes('/mcp')), 15_000);
  return /(http:\/\/\S+\/mcp)/.exec(out.join('\n'))![1];
}

describe('addServeCommand', () => {
  describe('serve <module> --http', () => {
    it('serves the exported agent with a token until stopped', async () => {
      const cli = run([
        join(FIXTURES, 'agent-module.ts'),
        '--http',
        'http://127.0.0.1:0',
        '--token',
        'cli-token',
      ]);
      const url = await endpointOf(cli.out);
      expect(cli.out[0]).toMatch(
        /^Serving 7 tool\(s\) of 'fixture-agent' at http:\/\/127\.0\.0\.1:\d+\/mcp \(card: .*agent\.json\)\.$/,
      );
      expect(cli.out[1]).toBe('Clients must send: Authorization: Bearer <token>.');
      await expect(connectHttpClient(url)).rejects.toThrow();
      const client = await connectHttpClient(url, { authorization: 'Bearer cli-token' });
      expect(await client.callTool({ name: 'add', arguments: { a: 2, b: 5 } })).toEqual({
        content: [{ type: 'text', text: '7' }],
        structuredContent: { result: 7 },
      });
      await client.close();
      cli.stop();
      await cli.done;
    });

    it('wraps exported toolset classes in an Agent, stateless when asked', async () => {
      const cli = run([join(FIXTURES, 'toolset-module.ts'), '--stateless']);
      const url = await endpointOf(cli.out);
      expect(cli.out[0]).toMatch(/^Serving 1 tool\(s\) of 'toolset-module' at /);
      const client = await connectHttpClient(url);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['multiply']);
      expect(await client.callTool({ name: 'multiply', arguments: { a: 6, b: 7 } })).toEqual({
        content: [{ type: 'text', text: '42' }],
        structuredContent: { result: 42 },
      });
      await client.close();
      cli.stop();
      await cli.done;
    });

    it('refuses an empty --token instead of serving without authentication', async () => {
      for (const token of ['', '  ']) {
        const cli = run([join(FIXTURES, 'agent-module.ts'), '--token', token]);
        const error = await cli.done.catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(ToolInputError);
        expect((error as Error).message).toBe(
          '--token must not be empty: an empty token would turn authentication off. Pass a real secret, or leave --token out.',
        );
        expect(cli.out).toEqual([]);
      }
    });

    // 192.0.2.1 (TEST-NET-1) is no address of this machine: the listen fails, so nothing is ever exposed.
    it('warns on stderr before listening on a non-loopback address without --token', async () => {
      const cli = run([
        join(FIXTURES, 'agent-module.ts'),
        '--http',
        'http://192.0.2.1:0',
        '--allow-non-loopback',
      ]);
      await expect(cli.done).rejects.toThrow(/^Cannot serve on 192\.0\.2\.1:0: /);
      expect(cli.err).toEqual([
        "protolink serve: warning: listening on '192.0.2.1' without --token: anyone who can reach this address can call the agent's tools. Pass a token with --token-file <path> or PROTOLINK_TOKEN (clients then send Authorization: Bearer <token>).",
      ]);
    });

    it('does not warn when a non-loopback address has a token, nor on loopback', async () => {
      const withToken = run([
        join(FIXTURES, 'agent-module.ts'),
        '--http',
        'http://192.0.2.1:0',
        '--allow-non-loopback',
        '--token',
        'cli-token',
      ]);
      await expect(withToken.done).rejects.toThrow(/^Cannot serve on 192\.0\.2\.1:0: /);
      expect(withToken.err).toEqual([]);
      const loopback = run([
        join(FIXTURES, 'agent-module.ts'),
        '--http',
        'http://127.0.0.1:0',
        '--allow-non-loopback',
      ]);
      await endpointOf(loopback.out);
      expect(loopback.err).toEqual([]);
      loopback.stop();
      await loopback.done;
    });

    it('refuses a non-loopback URL without --allow-non-loopback', async () => {
      const cli = run([join(FIXTURES, 'agent-module.ts'), '--http', 'http://0.0.0.0:0']);
      await expect(cli.done).rejects.toThrow(/Refusing to listen on '0\.0\.0\.0'/);
    });

    it('reports a module with nothing to serve with a ToolInputError', async () => {
      const cli = run([join(FIXTURES, 'empty-module.ts')]);
      const error = await cli.done.catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolInputError);
      expect((error as Error).message).toMatch(/exports no tools/);
    });

    it('refuses --stdio together with --http', async () => {
      const cli = run([join(FIXTURES, 'agent-module.ts'), '--stdio', '--http', 'http://127.0.0.1:0']);
      await expect(cli.done).rejects.toThrow('Choose one transport: --stdio or --http <url>, not both.');
    });
  });

  describe('serve <module> --stdio', () => {
    it.each([
      ['agent-module.ts', /Serving 7 tool\(s\) of 'fixture-agent' over stdio\./],
      ['noisy-module.ts', /loading the noisy module/],
    ])(
      'serves the agent of %s over stdin/stdout of a real process, notes on stderr',
      async (moduleFile, note) => {
        const transport = new StdioClientTransport({
          command: process.execPath,
          args: [
            '-r',
            'ts-node/register/transpile-only',
            join(FIXTURES, 'run-serve-cli.ts'),
            'serve',
            join(FIXTURES, moduleFile),
            '--stdio',
          ],
          cwd: ROOT,
          stderr: 'pipe',
        });
        let stderr = '';
        transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
        const client = new Client({ name: 'spec-cli-stdio', version: '1.0.0' });
        await client.connect(transport);
        try {
          expect((await client.listTools()).tools).toHaveLength(7);
          expect(await client.callTool({ name: 'echo', arguments: { text: 'over stdio' } })).toEqual({
            content: [{ type: 'text', text: 'over stdio' }],
          });
          expect(stderr).toMatch(note);
        } finally {
          await client.close();
        }
      },
      60_000,
    );
  });
});
