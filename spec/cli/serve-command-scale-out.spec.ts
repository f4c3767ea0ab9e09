import 'reflect-metadata';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { Command } from 'commander';
import type { CliIo } from '../../lib/cli/cli-io';
import { addServeCommand } from '../../lib/cli/commands/serve-command';
import { runCli } from '../../lib/cli/run-cli';
import { SessionStoreUnavailableError } from '../../lib/errors/session-store-unavailable-error';
import { describeWithRedis, startRedisServer } from '../fixtures/redis/redis-server';
import type { RedisServerHandle } from '../fixtures/redis/redis-server';
import {
  connectHttpClient,
  initializeBody,
  MCP_HEADERS,
  rawRequest,
  waitFor,
} from '../fixtures/serve/http-helpers';

const MODULE = join(__dirname, '..', 'fixtures', 'serve', 'agent-module.ts');

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** Runs `protolink serve <module> --http http://127.0.0.1:0 …args` in this process until stopped. */
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

async function endpointOf(out: string[]): Promise<string> {
  await waitFor(() => out.some((line) => line.includes('/mcp')), 15_000);
  return /(http:\/\/\S+\/mcp)/.exec(out.join('\n'))![1];
}

/** The exit code and stderr of the whole CLI (usage errors are found before anything is loaded). */
async function cli(argv: string[]): Promise<{ code: number; err: string }> {
  const err: string[] = [];
  const code = await runCli(argv, { out: () => {}, err: (text) => err.push(text) });
  return { code, err: err.join('') };
}

describe('protolink serve past one process', () => {
  describe('usage errors (exit code 2, nothing started)', () => {
    it('refuses --workers 2 for stateful serving without Redis, naming --redis and --stateless', async () => {
      const { code, err } = await cli(['serve', MODULE, '--workers', '2']);
      expect(code).toBe(2);
      expect(err).toBe(
        'protolink: error: --workers 2 needs --redis <url> (or PROTOLINK_REDIS_URL): stateful MCP sessions must be shared between the worker processes. Add --redis <url>, or serve with --stateless.',
      );
    });

    it.each([
      [['--workers', '0', '--stateless'], "--workers must be a whole number from 1 to 64, got '0'."],
      [['--workers', '100', '--stateless'], "--workers must be a whole number from 1 to 64, got '100'."],
      [['--stateless', '--redis', 'redis://127.0.0.1:1'], '--redis cannot be used with --stateless'],
      [['--stdio', '--workers', '2'], '--workers applies to HTTP serving only'],
      [
        ['--redis', 'http://u:hunter2@cache:1'],
        "--redis must be a redis:// or rediss:// URL (like redis://127.0.0.1:6379), got 'http://***@cache:1'.",
      ],
      [['--redis-key-prefix', 'x:'], '--redis-key-prefix needs a Redis'],
      [['--public-url', 'ftp://agent.example.com'], '--public-url: must be an http:// or https:// URL'],
    ])('refuses %j', async (args, message) => {
      const { code, err } = await cli(['serve', MODULE, ...args]);
      expect(code).toBe(2);
      expect(err).toContain(`protolink: error: ${message}`);
      expect(err).not.toContain('hunter2');
    });

    it('lists the scale-out flags and PROTOLINK_REDIS_URL in --help', async () => {
      const out: string[] = [];
      const code = await runCli(['serve', '--help'], { out: (text) => out.push(text), err: () => {} });
      expect(code).toBe(0);
      const help = out.join('');
      for (const flag of [
        '--redis <url>',
        '--redis-key-prefix <prefix>',
        '--workers <n>',
        '--public-url <url>',
      ]) {
        expect(help).toContain(flag);
      }
      expect(help).toContain(
        'Redis: --redis <url>, or the PROTOLINK_REDIS_URL environment variable (the flag wins).',
      );
    });
  });

  it('fails with SessionStoreUnavailableError (exit 1) when Redis cannot be reached, never printing its password', async () => {
    const port = await freePort();
    const cli = run(['--redis', `redis://:hunter2@127.0.0.1:${port}`]);
    const error = await cli.done.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(SessionStoreUnavailableError);
    expect((error as Error).message).toMatch(/^session store unavailable: .*ECONNREFUSED/);
    expect((error as Error).message).not.toContain('hunter2');
    expect(cli.out).toEqual([]);
    expect(cli.err.join('\n')).not.toContain('hunter2');
  });

  it('serves with --public-url: its host is accepted, others refused, and it is printed', async () => {
    const cli = run(['--public-url', 'https://agent.example.com']);
    const url = await endpointOf(cli.out);
    try {
      expect(cli.out).toContain(
        'Clients reach it at https://agent.example.com (its Host and Origin are accepted).',
      );
      const port = Number(new URL(url).port);
      const initialize = (host: string) =>
        rawRequest({ port, headers: { ...MCP_HEADERS, host }, body: initializeBody() });
      expect((await initialize('agent.example.com')).status).toBe(200);
      expect((await initialize('elsewhere.example.com')).status).toBe(403);
    } finally {
      cli.stop();
      await cli.done;
    }
  });
});

describeWithRedis('protolink serve --redis', () => {
  let redis: RedisServerHandle;

  beforeAll(async () => {
    redis = await startRedisServer();
  });

  afterAll(async () => {
    await redis?.dispose();
  });

  it('serves with sessions shared through Redis, printing the URL without its password', async () => {
    const withPassword = redis.url.replace('redis://', 'redis://default:@');
    const cli = run(['--redis', withPassword, '--redis-key-prefix', redis.keyPrefix]);
    const url = await endpointOf(cli.out);
    try {
      expect(cli.out).toContain(
        `Sessions are shared through Redis at ${redis.url.replace('redis://', 'redis://***@')} (key prefix '${redis.keyPrefix}').`,
      );
      const client = await connectHttpClient(url);
      expect(await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } })).toMatchObject({
        structuredContent: { result: 3 },
      });
      await client.close();
    } finally {
      cli.stop();
      await cli.done;
    }
  });

  it('reads PROTOLINK_REDIS_URL, and --redis wins over it', async () => {
    const fromEnv = run([], { PROTOLINK_REDIS_URL: redis.url });
    await endpointOf(fromEnv.out);
    expect(fromEnv.out).toContain(
      `Sessions are shared through Redis at ${redis.url} (key prefix 'protolink:').`,
    );
    fromEnv.stop();
    await fromEnv.done;
    // The variable names a Redis that is not there: only the flag's is used.
    const unreachable = `redis://127.0.0.1:${await freePort()}`;
    const flagWins = run(['--redis', redis.url], { PROTOLINK_REDIS_URL: unreachable });
    await endpointOf(flagWins.out);
    expect(flagWins.out.join('\n')).not.toContain(unreachable);
    flagWins.stop();
    await flagWins.done;
  });
});
