// The official MCP conformance suite (@modelcontextprotocol/conformance, the suite the MCP SDKs run in their own
// CI) against `protolink serve samples/09-mcp-conformance/server.ts --http …`, on a Node 22 binary from the npm
// registry (the suite needs Node >= 22; the project runs on Node >= 20.19).
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { listScenarios, runConformance } from '../fixtures/conformance/run-conformance';
import type { ConformanceRun } from '../fixtures/conformance/run-conformance';
import { SERVER_IN_SCOPE } from '../fixtures/conformance/server-in-scope';

jest.setTimeout(300_000);

const ROOT = join(__dirname, '..', '..');
const BASELINE = join(ROOT, 'spec', 'fixtures', 'conformance', 'server-expected-failures.yml');

/** The server scenarios that concern tools (issue 13): each must pass with no warning. */
const IN_SCOPE = SERVER_IN_SCOPE;

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
    run = await runConformance(
      ['server', '--url', mcpUrl, '--suite', 'all', '--expected-failures', BASELINE],
      outputDir,
    );
  });

  afterAll(() => {
    server?.kill();
    if (outputDir) rmSync(outputDir, { recursive: true, force: true });
  });

  it('knows every in-scope scenario by name (the suite did not rename or drop one)', async () => {
    const names = await listScenarios('server');
    expect(names).toEqual(expect.arrayContaining(IN_SCOPE));
  });

  it('passes the baseline check: only out-of-scope scenarios fail', () => {
    if (run.code !== 0) throw new Error(`conformance exited with ${run.code}:\n${run.output}`);
    expect(run.output).toContain('Baseline check passed');
  });

  it.each(IN_SCOPE)('passes %s with no failure and no warning', (scenario) => {
    const checks = run.checks.get(scenario);
    expect(checks).toBeDefined();
    const problems = checks!.filter((check) => check.status === 'FAILURE' || check.status === 'WARNING');
    expect(problems).toEqual([]);
    expect(checks!.some((check) => check.status === 'SUCCESS')).toBe(true);
  });

  it('lists only resources, prompts and completions as expected failures', () => {
    const baseline = (parseYaml(readFileSync(BASELINE, 'utf8')) as { server: string[] }).server;
    for (const scenario of baseline) expect(scenario).toMatch(/^(resources-|prompts-|completion-complete$)/);
    expect(baseline.filter((scenario) => IN_SCOPE.includes(scenario))).toEqual([]);
  });
});
