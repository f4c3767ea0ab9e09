import { execFile } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '../../..');
const SAMPLE = join(ROOT, 'samples/04-web-search/main.ts');
// Preloaded into the subprocess only: importing it here would block the network of the jest worker itself.
const DENY_NETWORK = join(ROOT, 'spec/fixtures/web-search/deny-network.ts');
const NETWORK_ATTEMPT_MARKER = 'NETWORK ATTEMPT BLOCKED';

interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the sample CLI in a real subprocess with every DNS lookup and socket connection blocked. */
function runSample(args: string[]): Promise<RunResult> {
  const environment: NodeJS.ProcessEnv = { ...process.env };
  delete environment.BRAVE_SEARCH_API_KEY;
  delete environment.NODE_OPTIONS;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', '-r', DENY_NETWORK, SAMPLE, ...args],
      { cwd: ROOT, env: environment, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

describe('webSearch', () => {
  describe('samples/04-web-search/main.ts', () => {
    let bare: RunResult;
    let braveWithoutKey: RunResult;
    let validQuery: RunResult;

    // Three subprocesses (ts-node compiles the sample each time), started together once.
    beforeAll(async () => {
      [bare, braveWithoutKey, validQuery] = await Promise.all([
        runSample([]),
        runSample(['semantic kernel', '--engine', 'brave']),
        runSample(['jupiter']),
      ]);
    }, 120_000);

    it('prints help and makes no request when it gets no query', () => {
      expect(bare.code).toBe(0);
      expect(bare.stdout).toMatch(/^Usage: npm run sample:search -- "<query>"/u);
      expect(bare.stdout).toContain('Run without a query, this prints help and makes no request.');
      expect(bare.stderr).not.toContain(NETWORK_ATTEMPT_MARKER);
    });

    it('reports a missing Brave key with the tool error and makes no request', () => {
      expect(braveWithoutKey.code).toBe(1);
      expect(braveWithoutKey.stderr).toContain(
        "ToolInputError (TOOL_INPUT): web_search: engine 'brave' needs an API key in the environment variable BRAVE_SEARCH_API_KEY",
      );
      expect(braveWithoutKey.stderr).not.toContain(NETWORK_ATTEMPT_MARKER);
    });

    it('asks wikipedia by default for a valid query (the blocked lookup proves the guard above is live)', () => {
      expect(validQuery.stderr).toContain(`${NETWORK_ATTEMPT_MARKER}: dns.promises.lookup en.wikipedia.org`);
      expect(validQuery.stderr).toContain(
        "ToolRuntimeError (TOOL_RUNTIME): web_search (engine 'wikipedia', Wikipedia):",
      );
      expect(validQuery.code).toBe(1);
    });
  });
});
