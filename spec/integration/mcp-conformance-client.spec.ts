// The official MCP conformance suite (@modelcontextprotocol/conformance) against our client:
// `conformance client --command "node <samples/09-mcp-conformance/client.ts, bundled>" --scenario S` for every
// client scenario the suite lists, on a Node 22 binary from the npm registry (see fixtures/conformance/node22).
// The sample is bundled once with esbuild so that each scenario starts a plain node process (ts-node would
// spend seconds per scenario); it is the same code, built from lib/.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { parse as parseYaml } from 'yaml';
import { listScenarios, runConformance } from '../fixtures/conformance/run-conformance';
import type { ConformanceCheck } from '../fixtures/conformance/run-conformance';

jest.setTimeout(170_000);

const ROOT = join(__dirname, '..', '..');
const BASELINE = join(ROOT, 'spec', 'fixtures', 'conformance', 'client-expected-failures.yml');

/** The released scenarios and the two client-credentials extensions issue 14 requires. */
const REQUIRED = [
  'initialize',
  'tools_call',
  'elicitation-sep1034-client-defaults',
  'sse-retry',
  'auth/metadata-default',
  'auth/metadata-var1',
  'auth/metadata-var2',
  'auth/metadata-var3',
  'auth/basic-cimd',
  'auth/scope-from-www-authenticate',
  'auth/scope-from-scopes-supported',
  'auth/scope-omitted-when-undefined',
  'auth/scope-step-up',
  'auth/scope-retry-limit',
  'auth/token-endpoint-auth-basic',
  'auth/token-endpoint-auth-post',
  'auth/token-endpoint-auth-none',
  'auth/pre-registration',
  'auth/2025-03-26-oauth-metadata-backcompat',
  'auth/2025-03-26-oauth-endpoint-fallback',
  'auth/client-credentials-jwt',
  'auth/client-credentials-basic',
];

interface ScenarioOutcome {
  checks: ConformanceCheck[];
  output: string;
}

/** Every `checks.json` the suite wrote under a directory (client scenario names contain slashes). */
function findChecks(directory: string): ConformanceCheck[] {
  const found: ConformanceCheck[] = [];
  if (!existsSync(directory)) return found;
  for (const entry of readdirSync(directory)) {
    const path = join(directory, entry);
    if (statSync(path).isDirectory()) found.push(...findChecks(path));
    else if (entry === 'checks.json')
      found.push(...(JSON.parse(readFileSync(path, 'utf8')) as ConformanceCheck[]));
  }
  return found;
}

function problemsOf(outcome: ScenarioOutcome | undefined): string[] {
  if (!outcome || outcome.checks.length === 0) return ['no checks were written'];
  return outcome.checks
    .filter((check) => check.status === 'FAILURE' || check.status === 'WARNING')
    .map((check) => `${check.status} ${check.id}: ${check.errorMessage ?? check.description ?? ''}`);
}

describe('MCP conformance suite: samples/09-mcp-conformance/client.ts (MCPToolAdapter)', () => {
  let workDir: string;
  let scenarios: string[];
  const outcomes = new Map<string, ScenarioOutcome>();
  const baseline = (parseYaml(readFileSync(BASELINE, 'utf8')) as { client: string[] }).client;

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), 'protolink-conformance-client-'));
    const bundle = join(workDir, 'client.js');
    buildSync({
      entryPoints: [join(ROOT, 'samples', '09-mcp-conformance', 'client.ts')],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      minify: true,
      outfile: bundle,
      logLevel: 'error',
    });
    scenarios = await listScenarios('client');
    // Three lanes on two cores: a scenario spends most of its time waiting (process start, HTTP round trips).
    const queue = [...scenarios];
    const lane = async (): Promise<void> => {
      for (let scenario = queue.shift(); scenario !== undefined; scenario = queue.shift()) {
        const outputDir = join(workDir, scenario.replace(/\//g, '_'));
        mkdirSync(outputDir);
        const run = await runConformance(
          ['client', '--command', `${process.execPath} ${bundle}`, '--scenario', scenario],
          outputDir,
          { timeoutMs: 60_000 },
        );
        outcomes.set(scenario, { checks: findChecks(outputDir), output: run.output });
      }
    };
    await Promise.all([lane(), lane(), lane()]);
  });

  afterAll(() => {
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  it('knows every required scenario by name (the suite did not rename or drop one)', () => {
    expect(scenarios).toEqual(expect.arrayContaining(REQUIRED));
  });

  it.each(REQUIRED.filter((scenario) => !baseline.includes(scenario)))(
    'passes %s with no failure and no warning',
    (scenario) => {
      const outcome = outcomes.get(scenario);
      expect(problemsOf(outcome)).toEqual([]);
      expect(outcome!.checks.some((check) => check.status === 'SUCCESS')).toBe(true);
    },
  );

  it('ran every scenario the suite lists (draft and extension ones too) and reports them', () => {
    const report = scenarios.map((scenario) => {
      const problems = problemsOf(outcomes.get(scenario));
      return `${problems.length ? 'FAIL' : 'pass'}  ${scenario}${baseline.includes(scenario) ? '  (baseline)' : ''}${problems.length ? `\n        ${problems.join('\n        ')}` : ''}`;
    });
    process.stdout.write(`MCP conformance, client scenarios:\n${report.join('\n')}\n`);
    expect(scenarios.filter((scenario) => !outcomes.get(scenario)?.checks.length)).toEqual([]);
  });

  it('fails only the scenarios of the baseline, each of which the suite still lists', () => {
    const failing = scenarios.filter((scenario) => problemsOf(outcomes.get(scenario)).length > 0);
    expect(failing.filter((scenario) => !baseline.includes(scenario))).toEqual([]);
    expect(baseline.filter((scenario) => !scenarios.includes(scenario))).toEqual([]);
  });

  it('keeps the baseline to scenarios outside the sign-in, elicitation and tools work', () => {
    expect(
      baseline.filter((scenario) => scenario.startsWith('auth/') && REQUIRED.includes(scenario)),
    ).toEqual([]);
  });
});
