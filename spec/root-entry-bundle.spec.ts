import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { buildSync } from 'esbuild';
import { readLlmFixture } from './fixtures/llm/read-llm-fixture';
import { startProviderServer } from './fixtures/llm/provider-test-server';
import type { ProviderTestServer } from './fixtures/llm/provider-test-server';

const run = promisify(execFile);
const ROOT = join(__dirname, '..');

/** The recorded OpenAI tool call (get_capital England), then a final answer. */
function providerReplies() {
  const answer = readLlmFixture('openai/chat-completion.tool-call.json');
  answer.choices[0].message = { role: 'assistant', content: 'London.', refusal: null, annotations: [] };
  answer.choices[0].finish_reason = 'stop';
  return [{ body: readLlmFixture('openai/chat-completion.tool-call.json') }, { body: answer }];
}

// `import 'protolink'` loads most of the package on first use (lazyRequire): every such module must be one a
// bundler sees. This bundles a program that walks those paths, as esbuild bundles the conformance client, and
// runs it where no node_modules can be reached, so a module left out of the bundle fails the step that needs it.
describe("a bundled program that imports 'protolink'", () => {
  let workDir: string;
  let server: ProviderTestServer;
  let results: Record<string, unknown>;

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), 'protolink-bundle-'));
    server = await startProviderServer(providerReplies());
    const bundle = join(workDir, 'program.js');
    buildSync({
      entryPoints: [join(ROOT, 'spec', 'fixtures', 'startup', 'bundled-program.ts')],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      outfile: bundle,
      logLevel: 'error',
    });
    const { stdout } = await run(process.execPath, [bundle], {
      cwd: workDir,
      env: { PATH: process.env.PATH, PROVIDER_URL: server.baseUrl, YAML_FILE: join(workDir, 'agent.yaml') },
    });
    results = JSON.parse(stdout.trim().split('\n').pop() as string) as Record<string, unknown>;
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  it('validates with the compiled schema and its formats', () => {
    expect(results.validation).toEqual({ day: '2024-02-29', count: 3 });
  });

  it('runs the calculator and the clock', () => {
    expect(results.calculator).toEqual(expect.objectContaining({ result: 14 }));
    expect(results.datetime).toBe(true);
  });

  it('asks the approval handler and the elicitation handler', () => {
    expect(results.approval).toBe('London');
    expect(results.asked).toEqual(['get_capital', 'get_capital']);
    expect(results.elicitation).toEqual({ action: 'accept', content: { name: 'Ada' } });
    expect(results.answered).toEqual(['Your name?']);
  });

  it('refuses a loopback URL in fetch_url (the fetch path is in the bundle)', () => {
    expect(results.fetchUrl).toEqual({ failed: expect.stringMatching(/^\w+Error \w*: .*127\.0\.0\.1/) });
    expect(JSON.stringify(results.fetchUrl)).not.toMatch(/MODULE_NOT_FOUND|Cannot find module/);
  });

  it('lowers the declarations for OpenAI, Anthropic and Gemini', () => {
    expect(results.declarations).toEqual(['get_capital', 'get_capital', 'get_capital']);
  });

  it('writes YAML and reads it back from a file, and round-trips a dict', () => {
    expect(results.yaml).toBe('bundled');
    expect(results.dict).toBe('bundled');
  });

  it('runs the tool loop with a scripted model and with the OpenAI client over HTTP', () => {
    expect(results.scriptedLoop).toBe('forty-two');
    expect(results.providerLoop).toBe('London.');
    expect(server.requests.map((request) => request.url)).toEqual([
      '/v1/chat/completions',
      '/v1/chat/completions',
    ]);
  });
});
