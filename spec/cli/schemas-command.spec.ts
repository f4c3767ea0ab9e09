import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { runCli } from '../../lib/cli/run-cli';
import type { CliIo } from '../../lib/cli/cli-io';
import { loadSchemaManifest } from '../../lib/tools/manifest/load-schema-manifest';

const root = join(__dirname, '../..');
const toolsets = join(root, 'spec/fixtures/toolsets');

function captureIo(): CliIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (text) => stdout.push(text), err: (text) => stderr.push(text) };
}

describe('protolink schemas', () => {
  it('writes a manifest that loadSchemaManifest reads, from a folder of toolsets', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'cli-schemas-')), 'schemas.json');
    const io = captureIo();
    expect(await runCli(['schemas', toolsets, '--out', out], io)).toBe(0);
    const manifest = loadSchemaManifest(out);
    expect(manifest.tools['WeatherTools.add'].outputSchema).toEqual({ type: 'number' });
    expect(manifest.tools['WeatherTools.forecast'].inputSchema).toMatchObject({
      type: 'object',
      required: ['city'],
    });
    expect(io.stdout.join('\n')).toMatch(/Wrote \d+ tool schema entries from 5 files/);
    expect(io.stderr).toEqual([]);
  });

  it('exits 1 with one line naming the missing path', async () => {
    const io = captureIo();
    expect(await runCli(['schemas', join(toolsets, 'missing.ts')], io)).toBe(1);
    expect(io.stderr).toHaveLength(1);
    expect(io.stderr[0]).toMatch(
      /^protolink: ToolInputError: '.*missing\.ts' does not exist; pass TypeScript files/,
    );
  });

  it('exits 1 when no file holds a @Tool method', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'cli-empty-'));
    writeFileSync(join(folder, 'plain.ts'), 'export const answer = 42;\n');
    const io = captureIo();
    expect(await runCli(['schemas', folder], io)).toBe(1);
    expect(io.stderr[0]).toContain('has a @Tool method; pass the files or folders of your toolsets');
  });

  it('prints the stack only with --verbose', async () => {
    const io = captureIo();
    expect(await runCli(['--verbose', 'schemas', join(toolsets, 'missing.ts')], io)).toBe(1);
    expect(io.stderr[1]).toMatch(/at findTypeScriptFiles/);
  });

  it('exits 2 for an unknown command', async () => {
    const io = captureIo();
    expect(await runCli(['bogus'], io)).toBe(2);
    expect(io.stderr.join('')).toContain("unknown command 'bogus'");
  });

  it('runs as an executable with the process exit code', async () => {
    const run = promisify(execFile);
    const out = join(mkdtempSync(join(tmpdir(), 'cli-exec-')), 'schemas.json');
    const result = await run(
      process.execPath,
      [
        '-r',
        'ts-node/register/transpile-only',
        'lib/cli/main.ts',
        'schemas',
        join(toolsets, 'typed-tools.ts'),
        '-o',
        out,
      ],
      { cwd: root },
    );
    expect(result.stdout).toContain('Wrote 3 tool schema entries from 1 file');
    expect(JSON.parse(readFileSync(out, 'utf8')).version).toBe(1);
    await expect(
      run(
        process.execPath,
        ['-r', 'ts-node/register/transpile-only', 'lib/cli/main.ts', 'schemas', '/nope'],
        { cwd: root },
      ),
    ).rejects.toMatchObject({ code: 1 });
  });
});
