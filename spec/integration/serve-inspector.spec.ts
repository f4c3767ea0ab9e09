import 'reflect-metadata';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentServerHandle } from '../../lib/agents/agent-server-options';
import { startAgentServer } from '../../lib/server/start-agent-server';
import { createFakeAgent } from '../fixtures/serve/fake-agent';

// A client we did not write: the MCP Inspector CLI, in a child process, over HTTP and over stdio.
const ROOT = join(__dirname, '..', '..');
const INSPECTOR = join(ROOT, 'node_modules', '.bin', 'mcp-inspector');
const FIXTURE = join(ROOT, 'spec', 'fixtures', 'serve', 'serve-stdio-fixture.ts');

function inspect(args: string[], home: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      INSPECTOR,
      ['--cli', ...args],
      {
        cwd: ROOT,
        timeout: 60_000,
        env: { ...process.env, HOME: home, MCP_CATALOG_PATH: join(home, 'mcp.json') },
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

function parseJson(stdout: string): any {
  return JSON.parse(stdout.slice(stdout.indexOf('{')));
}

describe('MCP Inspector CLI against a served agent', () => {
  let home: string;
  beforeAll(() => {
    home = mkdtempSync(join(tmpdir(), 'protolink-inspector-'));
  });
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  describe('over streamable HTTP', () => {
    let handle: AgentServerHandle;
    let agent: ReturnType<typeof createFakeAgent>;
    beforeAll(async () => {
      agent = createFakeAgent();
      handle = await startAgentServer(agent, { token: 'inspector-token' });
    });
    afterAll(() => handle.close());
    const auth = () => ['--header', 'Authorization: Bearer inspector-token'];

    it('lists the served tools', async () => {
      const result = await inspect(
        ['--transport', 'http', '--server-url', handle.mcpUrl, ...auth(), '--method', 'tools/list'],
        home,
      );
      expect(result.code).toBe(0);
      const names = parseJson(result.stdout).tools.map((tool: { name: string }) => tool.name);
      expect(names).toEqual(['add', 'echo', 'book', 'slow', 'crash', 'fail', 'delete_records']);
    }, 90_000);

    it('calls a tool with arguments and gets its result', async () => {
      const result = await inspect(
        [
          '--transport',
          'http',
          '--server-url',
          handle.mcpUrl,
          ...auth(),
          '--method',
          'tools/call',
          '--tool-name',
          'book',
          '--tool-arg',
          'city=Athens',
          'guests=2',
        ],
        home,
      );
      expect(result.code).toBe(0);
      expect(parseJson(result.stdout).structuredContent).toEqual({ id: 'BK-1', city: 'Athens', guests: 2 });
      expect(agent.log.executed).toEqual(['book']);
    }, 90_000);

    it('fails without the token and runs nothing', async () => {
      const before = agent.log.executed.length;
      const result = await inspect(
        ['--transport', 'http', '--server-url', handle.mcpUrl, '--method', 'tools/list'],
        home,
      );
      expect(result.code).not.toBe(0);
      expect(`${result.stdout}${result.stderr}`).toMatch(/auth_required|401|Unauthorized/i);
      expect(agent.log.executed.length).toBe(before);
    }, 90_000);
  });

  describe('over stdio', () => {
    const target = () => [process.execPath, '-r', 'ts-node/register/transpile-only', FIXTURE];

    it('lists the served tools', async () => {
      const result = await inspect([...target(), '--method', 'tools/list'], home);
      expect(result.code).toBe(0);
      expect(parseJson(result.stdout).tools.map((tool: { name: string }) => tool.name)).toContain('add');
    }, 90_000);

    it('calls a toolset served by `protolink serve --stdio` through a real Agent', async () => {
      const cli = [
        process.execPath,
        '-r',
        'ts-node/register/transpile-only',
        join(ROOT, 'spec', 'fixtures', 'serve', 'run-serve-cli.ts'),
        'serve',
        join(ROOT, 'spec', 'fixtures', 'serve', 'toolset-module.ts'),
        '--stdio',
      ];
      const result = await inspect(
        [...cli, '--method', 'tools/call', '--tool-name', 'multiply', '--tool-arg', 'a=6', 'b=7'],
        home,
      );
      expect(result.code).toBe(0);
      expect(parseJson(result.stdout).content).toEqual([{ type: 'text', text: '42' }]);
    }, 90_000);

    it('calls a tool and sees a denial as an error result', async () => {
      const added = await inspect(
        [...target(), '--method', 'tools/call', '--tool-name', 'add', '--tool-arg', 'a=1', 'b=2'],
        home,
      );
      expect(added.code).toBe(0);
      expect(parseJson(added.stdout).content).toEqual([{ type: 'text', text: '3' }]);
      const denied = await inspect(
        [...target(), '--method', 'tools/call', '--tool-name', 'delete_records'],
        home,
      );
      expect(`${denied.stdout}${denied.stderr}`).toMatch(/denied by policy/);
    }, 90_000);
  });
});
