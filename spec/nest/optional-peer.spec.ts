import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ToolInputError } from '../../lib/errors/tool-input-error';
import { assertNestInstalled } from '../../lib/nest/assert-nest-installed';

const run = promisify(execFile);
const root = join(__dirname, '../..');
const hideNest = join(root, 'spec/fixtures/nest/hide-nest.js');

function nodeWithoutNest(script: string) {
  return run(process.execPath, ['-r', hideNest, '-r', 'ts-node/register/transpile-only', '-e', script], {
    cwd: root,
  });
}

describe('protolink/nest without NestJS installed', () => {
  it('lets `protolink` load and work', async () => {
    const result = await nodeWithoutNest(
      "require('reflect-metadata'); const p = require('./lib/index.ts'); console.log(typeof p.NativeTool, typeof p.Agent);",
    );
    expect(result.stdout.trim()).toBe('function function');
  });

  it('fails to import with an error that names the packages to install', async () => {
    const failure = nodeWithoutNest("require('./lib/nest/index.ts');");
    await expect(failure).rejects.toMatchObject({
      stderr: expect.stringContaining(
        'ToolInputError: protolink/nest needs the optional peer dependencies @nestjs/common and @nestjs/core, and @nestjs/common and @nestjs/core could not be loaded. Install them with: npm install @nestjs/common @nestjs/core',
      ),
    });
  });
});

describe('assertNestInstalled', () => {
  it('passes when both packages resolve', () => {
    expect(() => assertNestInstalled((id) => id)).not.toThrow();
  });

  it('names only the missing package', () => {
    const resolveOnlyCommon = (id: string): string => {
      if (id === '@nestjs/common') return id;
      throw new Error('missing');
    };
    expect(() => assertNestInstalled(resolveOnlyCommon)).toThrow(ToolInputError);
    expect(() => assertNestInstalled(resolveOnlyCommon)).toThrow(/and @nestjs\/core could not be loaded/);
  });
});
