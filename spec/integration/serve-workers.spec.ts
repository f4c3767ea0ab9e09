import 'reflect-metadata';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { createClient } from 'redis';
import { describeWithRedis, startRedisServer } from '../fixtures/redis/redis-server';
import type { RedisServerHandle } from '../fixtures/redis/redis-server';
import { callBody, initializeBody, MCP_HEADERS, waitFor } from '../fixtures/serve/http-helpers';
import { PROCESS_AGENT_MODULE, runServeToExit, startServeProcess } from '../fixtures/serve/serve-processes';
import type { ServeProcess } from '../fixtures/serve/serve-processes';

// Real processes: each compiles the sources through ts-node first, slow on a busy machine.
jest.setTimeout(400_000);

/** One POST on `agent` (a fresh connection with `agent: false`); resolves with the status, headers and payload. */
function post(
  port: number,
  body: string,
  headers: Record<string, string> = {},
  agent: HttpAgent | false = false,
): Promise<{ status: number; sessionId?: string; json: any }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/mcp',
        headers: { ...MCP_HEADERS, host: `127.0.0.1:${port}`, ...headers },
        agent,
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          const line = text.split('\n').find((candidate) => candidate.startsWith('data: {'));
          const sessionId = response.headers['mcp-session-id'];
          resolve({
            status: response.statusCode ?? 0,
            sessionId: typeof sessionId === 'string' ? sessionId : undefined,
            json: text.trim() === '' ? undefined : JSON.parse(line ? line.slice(6) : text),
          });
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** The pid of the worker that answered a stateless `whoami`, on a fresh connection. */
async function whoamiStateless(port: number): Promise<number> {
  const answer = await post(port, callBody('whoami', {}));
  expect(answer.status).toBe(200);
  return answer.json.result.structuredContent.pid as number;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('protolink serve --workers', () => {
  let served: ServeProcess | undefined;

  afterEach(async () => {
    await served?.stop();
    served = undefined;
  });

  it('serves from two worker processes on one port, restarts a worker that dies, and stops them all on SIGTERM', async () => {
    served = await startServeProcess({ args: ['--workers', '2', '--stateless'] });
    expect(served.stdout).toMatch(
      /^Serving 3 tool\(s\) of 'process-agent' at http:\/\/127\.0\.0\.1:\d+\/mcp \(card: .*\)\.\n2 worker processes share the port\.\n$/,
    );
    const pids = new Set<number>();
    for (let index = 0; index < 6; index += 1) pids.add(await whoamiStateless(served.port));
    expect(pids.size).toBe(2);
    expect(pids.has(served.pid)).toBe(false);

    const [killed, survivor] = [...pids];
    process.kill(killed, 'SIGKILL');
    await waitFor(() => /serves again\./.test(served!.stderr), 300_000);
    expect(served.stderr).toMatch(
      new RegExp(
        `protolink serve: worker \\d \\(pid ${killed}\\) exited unexpectedly \\(signal SIGKILL\\); starting it again in 100 ms\\.`,
      ),
    );
    const after = new Set<number>();
    for (let index = 0; index < 6; index += 1) after.add(await whoamiStateless(served.port));
    expect(after.size).toBe(2);
    expect(after.has(survivor)).toBe(true);
    expect(after.has(killed)).toBe(false);

    const workers = [...after];
    const code = await served.stop('SIGTERM');
    served = undefined;
    expect(code).toBe(0);
    await waitFor(() => workers.every((pid) => !isRunning(pid)), 15_000);
  });

  it("exits with 1 and the worker's reason when a worker cannot start", async () => {
    const result = await runServeToExit([
      join(__dirname, '..', 'fixtures', 'serve', 'empty-module.ts'),
      '--http',
      'http://127.0.0.1:0',
      '--workers',
      '2',
      '--stateless',
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/protolink serve \(worker [12]\): ToolInputError: .*exports no tools/);
    expect(result.stderr).toMatch(
      /protolink: ToolRuntimeError: worker [12] of 2 (could not start: ToolInputError: .*exports no tools|exited \(exit code 1\) before it served)/,
    );
  });

  it('refuses --workers 2 without --redis for stateful serving with exit code 2, starting nothing', async () => {
    const result = await runServeToExit([PROCESS_AGENT_MODULE, '--workers', '2'], {
      env: { PROTOLINK_REDIS_URL: undefined },
    });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      'protolink: error: --workers 2 needs --redis <url> (or PROTOLINK_REDIS_URL): stateful MCP sessions must be shared between the worker processes. Add --redis <url>, or serve with --stateless.',
    );
  });
});

describeWithRedis('protolink serve --workers 2 --redis', () => {
  let redis: RedisServerHandle;
  let served: ServeProcess | undefined;

  beforeAll(async () => {
    redis = await startRedisServer();
  });

  afterAll(async () => {
    await served?.stop();
    await redis?.dispose();
  });

  async function connectedClients(): Promise<number> {
    const observer = createClient({ url: redis.url });
    observer.on('error', () => {});
    await observer.connect();
    try {
      const info = String(await observer.sendCommand(['INFO', 'clients']));
      return Number(/connected_clients:(\d+)/.exec(info)![1]) - 1;
    } finally {
      observer.destroy();
    }
  }

  /** Opens a session and calls whoami in it, every request on one connection (so one worker serves it). */
  async function whoamiInSession(port: number): Promise<number> {
    const agent = new HttpAgent({ keepAlive: true, maxSockets: 1 });
    try {
      const initialized = await post(port, initializeBody(), {}, agent);
      expect(initialized.status).toBe(200);
      const session = { 'mcp-session-id': initialized.sessionId! };
      const notified = await post(
        port,
        JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
        session,
        agent,
      );
      expect(notified.status).toBe(202);
      const called = await post(port, callBody('whoami', {}), session, agent);
      expect(called.status).toBe(200);
      return called.json.result.structuredContent.pid as number;
    } finally {
      agent.destroy();
    }
  }

  it('starts two stateful workers that each connect to Redis and serve sessions', async () => {
    const before = await connectedClients();
    served = await startServeProcess({
      args: ['--workers', '2', '--redis', redis.url, '--redis-key-prefix', redis.keyPrefix],
    });
    expect(served.stdout).toContain(
      `Sessions are shared through Redis at ${redis.url} (key prefix '${redis.keyPrefix}').`,
    );
    // Two connections per worker: commands and subscriptions.
    if (!redis.external) expect(await connectedClients()).toBe(before + 4);
    const pids = new Set<number>();
    for (let index = 0; index < 4; index += 1) pids.add(await whoamiInSession(served.port));
    expect(pids.size).toBe(2);
    expect(pids.has(served.pid)).toBe(false);
    expect(await served.stop()).toBe(0);
    served = undefined;
    if (!redis.external) expect(await connectedClients()).toBe(before);
  });
});
