import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import type { CliIo } from '../../lib/cli/cli-io';
import { addServeCommand } from '../../lib/cli/commands/serve-command';
import { ToolInputError } from '../../lib/errors/tool-input-error';
import { connectHttpClient, waitFor } from '../fixtures/serve/http-helpers';

const ROOT = join(__dirname, '..', '..');
const FIXTURES = join(ROOT, 'spec', 'fixtures', 'serve');
const MODULE = join(FIXTURES, 'agent-module.ts');
const RUN_SERVE_CLI = ['-r', 'ts-node/register/transpile-only', join(FIXTURES, 'run-serve-cli.ts')];

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
  const done = program.parseAsync(['serve', MODULE, '--http', 'http://127.0.0.1:0', ...args], {
    from: 'user',
  });
  const cli = { out, err, done, stop: () => controller.abort() };
  started.push(cli);
  return cli;
}

async function endpointOf(out: string[], timeoutMs = 15_000): Promise<string> {
  await waitFor(() => out.some((line) => line.includes('/mcp')), timeoutMs);
  return /(http:\/\/\S+\/mcp)/.exec(out.join('\n'))![1];
}

/** Serves, checks that exactly `token` opens the endpoint, and stops. */
async function expectServedWith(cli: ReturnType<typeof run>, token: string): Promise<void> {
  const url = await endpointOf(cli.out);
  await expect(connectHttpClient(url)).rejects.toThrow();
  await expect(connectHttpClient(url, { authorization: 'Bearer wrong-token' })).rejects.toThrow();
  const client = await connectHttpClient(url, { authorization: `Bearer ${token}` });
  expect(await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } })).toEqual({
    content: [{ type: 'text', text: '3' }],
    structuredContent: { result: 3 },
  });
  await client.close();
  cli.stop();
  await cli.done;
}

async function failureOf(cli: ReturnType<typeof run>): Promise<Error> {
  const error = await cli.done.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ToolInputError);
  expect(cli.out).toEqual([]);
  return error as Error;
}

describe('protolink serve: the token from PROTOLINK_TOKEN or --token-file', () => {
  let dir: string;
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'protolink-token-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads PROTOLINK_TOKEN when no option names a token, and says where it came from', async () => {
    const cli = run([], { PROTOLINK_TOKEN: 'env-token' });
    await expectServedWith(cli, 'env-token');
    expect(cli.out[1]).toBe(
      'Clients must send: Authorization: Bearer <token> (the token from PROTOLINK_TOKEN).',
    );
    expect(cli.out.join('\n')).not.toContain('env-token');
  });

  it('reads --token-file, dropping one trailing newline (LF or CRLF)', async () => {
    for (const [name, text] of [
      ['lf.txt', 'file-token\n'],
      ['crlf.txt', 'file-token\r\n'],
      ['bare.txt', 'file-token'],
    ]) {
      const cli = run(['--token-file', file(name, text)]);
      await expectServedWith(cli, 'file-token');
      expect(cli.out[1]).toBe(
        'Clients must send: Authorization: Bearer <token> (the token from --token-file).',
      );
    }
  });

  it('prefers --token-file and --token over PROTOLINK_TOKEN', async () => {
    await expectServedWith(
      run(['--token-file', file('wins.txt', 'from-file\n')], { PROTOLINK_TOKEN: 'from-env' }),
      'from-file',
    );
    await expectServedWith(run(['--token', 'from-flag'], { PROTOLINK_TOKEN: 'from-env' }), 'from-flag');
  });

  it('refuses --token together with --token-file', async () => {
    const error = await failureOf(run(['--token', 'a', '--token-file', file('both.txt', 'b')]));
    expect(error.message).toBe(
      'Give the token once: --token or --token-file, not both. Prefer --token-file (or PROTOLINK_TOKEN): a --token value is visible in the process list.',
    );
  });

  it('refuses an empty token file, a blank PROTOLINK_TOKEN and a missing file', async () => {
    for (const text of ['', '\n', '  \r\n']) {
      const path = file('empty.txt', text);
      const error = await failureOf(run(['--token-file', path]));
      expect(error.message).toBe(
        `--token-file '${path}' holds no token (it is empty): an empty token would turn authentication off. Pass a real secret, or leave --token-file out.`,
      );
    }
    for (const value of ['', ' ']) {
      const error = await failureOf(run([], { PROTOLINK_TOKEN: value }));
      expect(error.message).toBe(
        'PROTOLINK_TOKEN is set but empty: an empty token would turn authentication off. Pass a real secret, or unset PROTOLINK_TOKEN.',
      );
    }
    const missing = join(dir, 'missing.txt');
    const error = await failureOf(run(['--token-file', missing]));
    expect(error.message).toBe(
      `Cannot read --token-file '${missing}' (no such file); pass the path of a file holding the token.`,
    );
    const directory = await failureOf(run(['--token-file', dir]));
    expect(directory.message).toBe(
      `Cannot read --token-file '${dir}' (it is a directory); pass the path of a file holding the token.`,
    );
  });

  it('in a real process: serves with PROTOLINK_TOKEN, the token nowhere in its arguments', async () => {
    const child = spawn(
      process.execPath,
      [...RUN_SERVE_CLI, 'serve', MODULE, '--http', 'http://127.0.0.1:0'],
      {
        cwd: ROOT,
        env: { ...process.env, PROTOLINK_TOKEN: 'process-token' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const out: string[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk.toString('utf8')));
    try {
      // A fresh process compiles the sources first: slow on a busy machine.
      const url = await endpointOf(out, 100_000);
      expect(child.spawnargs.join(' ')).not.toContain('process-token');
      await expect(connectHttpClient(url)).rejects.toThrow();
      const client = await connectHttpClient(url, { authorization: 'Bearer process-token' });
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      await client.close();
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  }, 120_000);

  it('in a real process: --help names --token-file and PROTOLINK_TOKEN', async () => {
    const child = spawn(process.execPath, [...RUN_SERVE_CLI, 'serve', '--help'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    await new Promise<void>((resolve) => child.once('exit', () => resolve()));
    expect(out).toContain('--token-file <path>');
    expect(out).toMatch(/read the token from this file \(one\s+trailing\s+newline\s+is\s+ignored\)/);
    expect(out).toMatch(/prefer\s+--token-file\s+or\s+PROTOLINK_TOKEN/);
    expect(out).toContain(
      'Token: --token <token>, --token-file <path>, or the PROTOLINK_TOKEN environment variable',
    );
  }, 120_000);
});
