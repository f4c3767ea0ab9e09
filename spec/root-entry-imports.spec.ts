import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = join(__dirname, '..');
const recorder = './spec/fixtures/startup/record-packages.js';
const reportAtExit = './spec/fixtures/startup/report-packages-at-exit.js';

/** What the recorder saw: packages a module of lib/ asked for, and packages loaded for the first time. */
interface PackagesSeen {
  requestedByLib: string[];
  loaded: string[];
}

/**
 * Packages that must load only when used (SPEC section 11: start-up). Each costs from a few to hundreds of
 * milliseconds at `import 'protolink'` or `protolink --help`.
 */
const LOADED_ONLY_WHEN_USED = [
  '@modelcontextprotocol/sdk',
  'axios',
  'htmlparser2',
  'yaml',
  're2js',
  'iconv-lite',
  'ipaddr.js',
  'commander',
  'zod',
  'ajv',
  'ajv-formats',
  'openai',
  '@anthropic-ai/sdk',
  '@google/genai',
  'redis',
  'typescript',
  'typescript-json-schema',
];

/** The runtime dependencies `import 'protolink'` is measured against (bench/startup.bench.ts). */
const RUNTIME_DEPENDENCIES = ['class-transformer', 'class-validator', 'reflect-metadata'];

function heavyIn(seen: PackagesSeen): string[] {
  const names = new Set([...seen.requestedByLib, ...seen.loaded]);
  return LOADED_ONLY_WHEN_USED.filter((name) => names.has(name));
}

/** Runs `script` in a fresh node process that compiles lib/ with ts-node and prints one JSON line. */
async function runFresh(script: string): Promise<Record<string, PackagesSeen>> {
  const { stdout } = await run(process.execPath, ['-r', 'ts-node/register/transpile-only', '-e', script], {
    cwd: root,
  });
  return JSON.parse(stdout.trim().split('\n').pop() as string) as Record<string, PackagesSeen>;
}

describe("import 'protolink'", () => {
  let seen: Record<string, PackagesSeen>;

  beforeAll(async () => {
    seen = await runFresh(`
      const take = require(${JSON.stringify(recorder)}).recordPackages();
      const protolink = require('./lib/index.ts');
      const atImport = take();
      protolink.validateToolArgs({ a: 1 }, { type: 'object', properties: { a: { type: 'integer' } } });
      const atFirstValidation = take();
      protolink.calculator();
      protolink.fetchUrl();
      protolink.webSearch();
      const atBuiltinCreation = take();
      console.log(JSON.stringify({ atImport, atFirstValidation, atBuiltinCreation }));
    `);
  }, 60_000);

  it('asks for no package but its three runtime dependencies', () => {
    expect(seen.atImport.requestedByLib).toEqual(RUNTIME_DEPENDENCIES);
  });

  it('loads none of the packages that load only when used', () => {
    expect(heavyIn(seen.atImport)).toEqual([]);
  });

  it('loads Ajv with the first validation (the recorder sees lazy loads)', () => {
    expect(seen.atFirstValidation.loaded).toEqual(expect.arrayContaining(['ajv', 'ajv-formats']));
  });

  it('loads no network or parser package when built-in tools are created, only when they run', () => {
    expect(heavyIn(seen.atBuiltinCreation)).toEqual([]);
  });
});

describe('protolink --help', () => {
  it('loads commander and nothing else', async () => {
    const { stdout, stderr } = await run(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', '-r', reportAtExit, 'lib/cli/main.ts', '--help'],
      { cwd: root },
    );
    expect(stdout).toContain('Usage: protolink');
    const report = /PACKAGES (.*)/.exec(stderr)?.[1];
    expect(JSON.parse(report as string)).toEqual({ requestedByLib: ['commander'], loaded: ['commander'] });
  }, 60_000);
});
