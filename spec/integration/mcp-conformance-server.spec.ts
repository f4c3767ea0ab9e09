// The official MCP conformance suite (@modelcontextprotocol/conformance, the suite the MCP SDKs run in their own
// CI) against `protolink serve samples/09-mcp-conformance/server.ts --http …`, on a Node 22 binary from the npm
// registry (the suite needs Node >= 22; the project runs on Node >= 20.19).
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listScenarios, runConformance } from '../fixtures/conformance/run-conformance';
import type { ConformanceRun } from '../fixtures/conformance/run-conformance';
import { SERVER_SCENARIOS } from '../fixtures/conformance/server-scenarios';

jest.setTimeout(300_000);

const ROOT = join(__dirname, '..', '..');

describe('MCP conformance suite: protolink serve', () => {
  let server: ChildProcessWithoutNullStreams | undefined;
  let serverOutput = '';
  let mcpUrl: string;
  let outputDir: string;
  let run: ConformanceRun;

  beforeAll(async () => {
    outputDir = mkdtempSync(join(tmpdir(), 'protolink-conformance-server-'));
    server = spawn(
      process.execPath,
      [
        '-r',
        'ts-node/register/transpile-only',
        join(ROOT, 'lib', 'cli', 'main.ts'),
        'serve',
        join(ROOT, 'samples', '09-mcp-conformance', 'server.ts'),
        '--http',
        'http://127.0.0.1:0',
      ],
      { cwd: ROOT, env: { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true' } },
    );
    mcpUrl = await new Promise<string>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        serverOutput += chunk.toString();
        const match = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(serverOutput);
        if (match) resolve(match[1]);
      };
      server!.stdout.on('data', onData);
      server!.stderr.on('data', onData);
      server!.once('exit', (code) => reject(new Error(`protolink serve exited (${code}):\n${serverOutput}`)));
    });
    run = await runConformance(['server', '--url', mcpUrl, '--suite', 'all'], outputDir);
  });

  afterAll(() => {
    server?.kill();
    if (outputDir) rmSync(outputDir, { recursive: true, force: true });
  });

  it('knows exactly the 32 server scenarios (the suite did not rename, drop or add one)', async () => {
    const names = await listScenarios('server');
    expect([...names].sort()).toEqual([...SERVER_SCENARIOS].sort());
    expect(SERVER_SCENARIOS).toHaveLength(32);
  });

  it('exits 0: every scenario passes, with no baseline of expected failures', () => {
    if (run.code !== 0) throw new Error(`conformance exited with ${run.code}:\n${run.output}`);
    expect(run.checks.size).toBe(SERVER_SCENARIOS.length);
  });

  it.each(SERVER_SCENARIOS)('passes %s with no failure and no warning', (scenario) => {
    const checks = run.checks.get(scenario);
    expect(checks).toBeDefined();
    const problems = checks!.filter((check) => check.status === 'FAILURE' || check.status === 'WARNING');
    expect(problems).toEqual([]);
    expect(checks!.some((check) => check.status === 'SUCCESS')).toBe(true);
  });
});
