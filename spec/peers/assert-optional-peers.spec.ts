import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ToolInputError } from '../../lib/errors/tool-input-error';
import { assertOptionalPeers } from '../../lib/peers/assert-optional-peers';

const run = promisify(execFile);
const root = join(__dirname, '../..');
const hideModules = join(root, 'spec/fixtures/peers/hide-modules.js');

/** Runs a script in a fresh Node process where the given packages cannot be resolved. */
function nodeWithout(hidden: readonly string[], script: string) {
  return run(process.execPath, ['-r', hideModules, '-r', 'ts-node/register/transpile-only', '-e', script], {
    cwd: root,
    env: { ...process.env, HIDE_MODULES: hidden.join(',') },
  });
}

const resolveOnly =
  (...installed: string[]) =>
  (id: string): string => {
    if (installed.includes(id)) return id;
    throw new Error(`Cannot find module '${id}'`);
  };

describe('assertOptionalPeers', () => {
  it('passes when every peer resolves', () => {
    expect(() =>
      assertOptionalPeers({ entry: 'protolink/x', peers: ['a', 'b'], resolve: resolveOnly('a', 'b') }),
    ).not.toThrow();
  });

  it('names the one missing peer and the command that installs it', () => {
    const check = () =>
      assertOptionalPeers({ entry: 'protolink/ai-sdk', peers: ['ai'], resolve: resolveOnly() });
    expect(check).toThrow(ToolInputError);
    expect(check).toThrow(
      'protolink/ai-sdk needs the optional peer dependency ai, and it could not be loaded. Install it with: npm install ai',
    );
  });

  it('names every peer to install and only the missing ones as missing', () => {
    const check = () =>
      assertOptionalPeers({ entry: 'protolink/y', peers: ['a', 'b', 'c'], resolve: resolveOnly('b') });
    expect(check).toThrow(
      'protolink/y needs the optional peer dependencies a, b and c, and a and c could not be loaded. Install them with: npm install a b c',
    );
  });

  it('resolves the probe of a package without a root export, and adds the install flag', () => {
    expect(() =>
      assertOptionalPeers({
        entry: 'protolink/langchain',
        peers: [{ name: '@langchain/core', probe: '@langchain/core/tools' }],
        resolve: resolveOnly('@langchain/core/tools'),
      }),
    ).not.toThrow();
    expect(() =>
      assertOptionalPeers({
        entry: 'protolink schemas',
        peers: ['typescript-json-schema'],
        installFlag: '--save-dev',
        resolve: resolveOnly(),
      }),
    ).toThrow('Install it with: npm install --save-dev typescript-json-schema');
  });
});

describe('entries whose optional peer is not installed', () => {
  it.each([
    [
      'lib/ai-sdk/index.ts',
      ['ai'],
      'protolink/ai-sdk needs the optional peer dependency ai',
      'npm install ai',
    ],
    [
      'lib/langchain/index.ts',
      ['@langchain/core'],
      'protolink/langchain needs the optional peer dependency @langchain/core',
      'npm install @langchain/core',
    ],
    [
      'lib/openai-agents/index.ts',
      ['@openai/agents'],
      'protolink/openai-agents needs the optional peer dependency @openai/agents',
      'npm install @openai/agents',
    ],
    [
      'lib/redis/index.ts',
      ['redis', '@redis'],
      'protolink/redis needs the optional peer dependency redis',
      'npm install redis',
    ],
  ])('%s fails at import with the package and the install command', async (entry, hidden, what, install) => {
    const failure = nodeWithout(hidden, `require('./${entry}');`);
    await expect(failure).rejects.toMatchObject({
      stderr: expect.stringContaining(
        `ToolInputError: ${what}, and it could not be loaded. Install it with: ${install}`,
      ),
    });
  });

  it('lets `protolink` load and call tools without any of them', async () => {
    const result = await nodeWithout(
      ['ai', '@langchain/core', '@openai/agents', 'typescript-json-schema', '@nestjs', 'redis', '@redis'],
      "require('reflect-metadata'); const p = require('./lib/index.ts'); " +
        "const agent = new p.Agent({ card: { name: 'a', description: 'd', url: 'http://127.0.0.1:1' }, tools: [p.calculator()] }); " +
        "agent.callTool('calculator', { expression: '2**10' }).then((r) => console.log(JSON.stringify(r)));",
    );
    expect(result.stdout).toContain('1024');
  });

  it('`protolink schemas` says to install typescript-json-schema as a dev dependency', async () => {
    const failure = nodeWithout(
      ['typescript-json-schema'],
      "const { generateSchemaManifest } = require('./lib/tools/manifest/generate-schema-manifest.ts'); " +
        "generateSchemaManifest({ files: ['samples/00-quickstart/main.ts'] });",
    );
    await expect(failure).rejects.toMatchObject({
      stderr: expect.stringContaining(
        'ToolInputError: protolink schemas needs the optional peer dependency typescript-json-schema, and it could not be loaded. Install it with: npm install --save-dev typescript-json-schema',
      ),
    });
  });
});
