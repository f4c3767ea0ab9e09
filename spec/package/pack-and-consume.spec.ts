import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONSUMER_PROJECTS, writeConsumerProject } from './consumer-projects';
import { collectDeclarationImports } from './declaration-graph';

// Packs the package as `npm pack` does for a publish (the `prepack` script builds `dist/`), installs the
// tarball once in a temporary folder, and type-checks and runs three consumer projects that share that
// install: CommonJS with node16 resolution and full lib checking, ESM with nodenext, and the classic Nest
// tsconfig (commonjs, node10 resolution). Slow by nature (a build and an install): one beforeAll.

const root = join(__dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  exports: Record<string, { types: string; default: string } | string>;
  typesVersions: Record<string, Record<string, string[]>>;
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

const SETUP_TIMEOUT_MS = 600_000;
/** The TypeScript 5 release the consumers of the older compiler use. */
const TYPESCRIPT_5 = '5.9.3';

interface CommandResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: readonly string[], cwd: string): CommandResult {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    // npm's own environment of a parent `npm test` would point the child npm at the checkout.
    env: withoutNpmLifecycleVariables(process.env),
  });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function runOrFail(command: string, args: readonly string[], cwd: string): string {
  const result = run(command, args, cwd);
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} (in ${cwd}) exited with ${result.status}:\n${result.stdout}\n${result.stderr}`,
    );
  }
  return result.stdout;
}

function withoutNpmLifecycleVariables(environment: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const kept: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(environment)) {
    if (!/^npm_(package|lifecycle|config_(prefix|local_prefix|global))/i.test(key)) kept[key] = value;
  }
  return kept;
}

/** The subpaths of package.json `exports` that are entries (not `./package.json`), without `./`. */
function entrySubpaths(): string[] {
  return Object.keys(manifest.exports)
    .filter((subpath) => subpath !== '.' && !subpath.endsWith('.json'))
    .map((subpath) => subpath.slice(2));
}

function typesOf(subpath: string): string {
  const entry = manifest.exports[subpath === '.' ? '.' : `./${subpath}`];
  if (typeof entry !== 'object') throw new Error(`exports['${subpath}'] has no types condition`);
  return entry.types;
}

describe('the packed package', () => {
  let workspace = '';
  let tarballFiles: string[] = [];
  let installed = '';

  beforeAll(() => {
    workspace = mkdtempSync(join(tmpdir(), 'protolink-pack-'));
    runOrFail('npm', ['pack', '--pack-destination', workspace], root);
    const tarball = readdirSync(workspace).find((file) => file.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack wrote no tarball to ${workspace}`);
    tarballFiles = runOrFail('tar', ['-tzf', join(workspace, tarball)], workspace)
      .split('\n')
      .filter(Boolean)
      .map((file) => file.replace(/^package\//, ''));
    const versionOf = (name: string): string => {
      const version = manifest.dependencies[name] ?? manifest.devDependencies[name];
      if (!version) throw new Error(`package.json pins no version of ${name}`);
      return version;
    };
    const consumerManifest = {
      name: 'protolink-consumers',
      private: true,
      dependencies: {
        [manifest.name]: `file:./${tarball}`,
        ...Object.fromEntries(
          [
            'reflect-metadata',
            'class-validator',
            'class-transformer',
            '@nestjs/common',
            '@nestjs/core',
            '@nestjs/platform-fastify',
            'rxjs',
          ].map((name) => [name, versionOf(name)]),
        ),
      },
      devDependencies: {
        typescript: versionOf('typescript'),
        typescript5: `npm:typescript@${TYPESCRIPT_5}`,
        '@types/node': versionOf('@types/node'),
      },
    };
    writeFileSync(join(workspace, 'package.json'), `${JSON.stringify(consumerManifest, null, 2)}\n`);
    runOrFail(
      'npm',
      ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'],
      workspace,
    );
    installed = join(workspace, 'node_modules', manifest.name);
  }, SETUP_TIMEOUT_MS);

  afterAll(() => {
    if (workspace) rmSync(workspace, { recursive: true, force: true });
  });

  describe('npm pack', () => {
    it('builds dist/ before packing (prepack), and no script builds on npm ci', () => {
      expect(manifest.scripts.prepack).toMatch(/npm run build/);
      for (const hook of ['prepare', 'preinstall', 'install', 'postinstall']) {
        expect(manifest.scripts[hook]).toBeUndefined();
      }
      for (const subpath of ['.', ...entrySubpaths()]) {
        const entry = manifest.exports[subpath === '.' ? '.' : `./${subpath}`] as Record<string, string>;
        expect(tarballFiles).toContain(entry.types.replace(/^\.\//, ''));
        expect(tarballFiles).toContain(entry.default.replace(/^\.\//, ''));
      }
      expect(tarballFiles).toContain('dist/lib/cli/main.js');
      expect(tarballFiles).toContain('package.json');
      expect(tarballFiles.filter((file) => /\.ts$/.test(file) && !file.endsWith('.d.ts'))).toEqual([]);
      expect(tarballFiles.filter((file) => !file.startsWith('dist/lib/'))).toEqual(
        expect.arrayContaining(['package.json', 'README.md']),
      );
      expect(tarballFiles.some((file) => file.startsWith('spec/') || file.startsWith('dist/spec/'))).toBe(
        false,
      );
    });

    it('ships source maps that carry their sources (the package has no lib/*.ts)', () => {
      const maps = tarballFiles.filter((file) => file.endsWith('.js.map'));
      expect(maps.length).toBeGreaterThan(0);
      for (const file of ['dist/lib/index.js.map', 'dist/lib/agents/agent.js.map']) {
        const map = JSON.parse(readFileSync(join(installed, file), 'utf8')) as {
          sources: string[];
          sourcesContent?: (string | null)[];
        };
        expect(map.sourcesContent).toHaveLength(map.sources.length);
        expect(map.sourcesContent!.every((source) => typeof source === 'string' && source.length > 0)).toBe(
          true,
        );
      }
    });
  });

  describe("the original's modules", () => {
    it.each([
      ['agents', 'Agent'],
      ['models', 'fromOpenAI'],
      ['tools/builtins', 'calculator'],
    ])('load as protolink/%s with require and with import', (subpath, name) => {
      const specifier = `${manifest.name}/${subpath}`;
      const required = runOrFail(
        process.execPath,
        ['-e', `require('reflect-metadata'); console.log(typeof require('${specifier}').${name});`],
        workspace,
      );
      const imported = runOrFail(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `import 'reflect-metadata'; const loaded = await import('${specifier}'); console.log(typeof loaded.${name});`,
        ],
        workspace,
      );
      expect({ required: required.trim(), imported: imported.trim() }).toEqual({
        required: 'function',
        imported: 'function',
      });
    });
  });

  describe('declarations', () => {
    it("never reach the MCP SDK from the root entry, 'protolink/tools' or the original's modules", () => {
      const imports = collectDeclarationImports(
        installed,
        ['.', 'tools', 'tools/builtins', 'agents', 'models'].map(typesOf),
      );
      expect(imports.length).toBeGreaterThan(50);
      expect(imports.filter((found) => found.specifier.startsWith('@modelcontextprotocol/'))).toEqual([]);
    });

    it('reach it behind protolink/server (the scan sees SDK imports where there are some)', () => {
      const imports = collectDeclarationImports(installed, [typesOf('server')]);
      expect(imports.some((found) => found.specifier.startsWith('@modelcontextprotocol/sdk'))).toBe(true);
    });

    it('resolve every exports entry under node10 resolution through typesVersions', () => {
      const ts = require(join(workspace, 'node_modules', 'typescript')) as typeof import('typescript');
      const containingFile = join(workspace, 'nest-node10', 'src', 'main.ts');
      const compilerOptions = {
        moduleResolution: ts.ModuleResolutionKind.Node10,
        module: ts.ModuleKind.CommonJS,
      };
      const subpaths = entrySubpaths();
      expect(subpaths).toEqual(expect.arrayContaining(['tools', 'nest', 'server']));
      expect(Object.keys(manifest.typesVersions['*']!).sort()).toEqual([...subpaths].sort());
      for (const subpath of ['.', ...subpaths]) {
        const specifier = subpath === '.' ? manifest.name : `${manifest.name}/${subpath}`;
        const resolved = ts.resolveModuleName(specifier, containingFile, compilerOptions, ts.sys);
        expect({ specifier, file: resolved.resolvedModule?.resolvedFileName }).toEqual({
          specifier,
          file: join(installed, typesOf(subpath)),
        });
      }
    });
  });

  describe.each(CONSUMER_PROJECTS.map((project) => [project.name, project] as const))(
    'a %s consumer',
    (_name, project) => {
      it(
        project.run
          ? 'type-checks with its own TypeScript and runs a tool module'
          : 'type-checks every entry',
        () => {
          const folder = writeConsumerProject(workspace, project, manifest.devDependencies.typescript!);
          const tsc = require.resolve(`${project.compiler}/bin/tsc`, { paths: [folder] });
          expect(tsc.startsWith(workspace)).toBe(true);
          const compiled = run(process.execPath, [tsc, '-p', 'tsconfig.json'], folder);
          expect({ status: compiled.status, output: compiled.stdout + compiled.stderr }).toEqual({
            status: 0,
            output: '',
          });
          if (!project.run) return;
          const output = runOrFail(process.execPath, [join('dist', 'main.js')], folder);
          expect(JSON.parse(output.trim())).toEqual({
            sum: 5,
            ordered: '2 x pear (Order)',
            refused: 'TOOL_VALIDATION',
            toolNames: ['add', 'order'],
            schemaType: 'object',
          });
        },
        SETUP_TIMEOUT_MS,
      );
    },
  );
});
