import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  REPO_ROOT,
  isProcessAlive,
  startHttpServer,
  testServerStdio,
} from '../../fixtures/mcp/mcp-test-servers';
import type { RunningHttpServer } from '../../fixtures/mcp/mcp-test-servers';

jest.setTimeout(120_000);

const FORGETFUL = join(REPO_ROOT, 'spec', 'fixtures', 'mcp', 'forgetful-script.ts');
const SPAWN_AND_EXIT = join(REPO_ROOT, 'spec', 'fixtures', 'mcp', 'spawn-and-exit.ts');
/** A script that hangs is stopped after this long, so a regression fails instead of blocking the suite. */
const HANG_LIMIT_MS = 60_000;

interface ScriptRun {
  readonly code: number | null;
  readonly stoppedAfterHanging: boolean;
  readonly stdout: string;
  readonly stderr: string;
}

function runScript(script: string, args: readonly string[]): Promise<ScriptRun> {
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', script, ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  let stoppedAfterHanging = false;
  const guard = setTimeout(() => {
    stoppedAfterHanging = true;
    child.kill('SIGKILL');
  }, HANG_LIMIT_MS);
  return new Promise((resolve) => {
    child.once('close', (code) => {
      clearTimeout(guard);
      resolve({ code, stoppedAfterHanging, stdout, stderr });
    });
  });
}

/** Whether a process is gone: no such pid, or a zombie waiting for its new parent to reap it. */
function isGone(pid: number): boolean {
  if (!isProcessAlive(pid)) return true;
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z') ?? false;
  } catch {
    return true;
  }
}

async function waitUntilGone(pid: number): Promise<boolean> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (isGone(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return isGone(pid);
}

describe('MCPToolAdapter', () => {
  describe('a script that never calls close()', () => {
    it('exits on its own with code 0 over stdio, and the server child is gone', async () => {
      const options = testServerStdio();
      const run = await runScript(FORGETFUL, [JSON.stringify(options), 'add', '{"a":2,"b":3}']);
      expect(run.stoppedAfterHanging).toBe(false);
      expect(run.stderr).not.toContain('forgetful script failed');
      expect(run.code).toBe(0);
      const output = JSON.parse(run.stdout) as { result: string; serverPid: number };
      expect(output.result).toBe('5');
      expect(output.serverPid).toBeGreaterThan(0);
      expect(await waitUntilGone(output.serverPid)).toBe(true);
    });

    describe('over HTTP', () => {
      const servers: RunningHttpServer[] = [];
      afterAll(async () => {
        await Promise.all(servers.map((server) => server.stop()));
      });

      it('exits with code 0 over streamable HTTP although the session keeps its event stream open', async () => {
        const server = await startHttpServer('test');
        servers.push(server);
        const options = { transport: 'http', url: server.url, serverName: 'test' };
        const run = await runScript(FORGETFUL, [JSON.stringify(options), 'add', '{"a":2,"b":3}']);
        expect(run.stoppedAfterHanging).toBe(false);
        expect(run.code).toBe(0);
        expect(JSON.parse(run.stdout)).toMatchObject({ result: '5' });
      });

      it('exits with code 0 over legacy SSE, whose event stream carries the answers', async () => {
        const server = await startHttpServer('everything-sse');
        servers.push(server);
        const options = { transport: 'sse', url: server.url, serverName: 'everything' };
        const run = await runScript(FORGETFUL, [JSON.stringify(options), 'get-sum', '{"a":2,"b":3}']);
        expect(run.stoppedAfterHanging).toBe(false);
        expect(run.code).toBe(0);
        expect(JSON.parse(run.stdout).result).toContain('5');
      });
    });
  });

  describe('endChildOnExit', () => {
    it('ends a live child that ignores the end of its stdin when the process exits', async () => {
      const run = await runScript(SPAWN_AND_EXIT, []);
      expect(run.code).toBe(0);
      const pid = Number(run.stdout.trim());
      expect(pid).toBeGreaterThan(0);
      expect(await waitUntilGone(pid)).toBe(true);
    });
  });
});
