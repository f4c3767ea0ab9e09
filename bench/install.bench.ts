// `npm run bench -- install`: what a production install of the packed package costs (packages, disk, time),
// next to the tool layers users compare it with, each installed alone into a fresh folder in the same run.
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchRow } from './measure';

const root = join(__dirname, '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  devDependencies: Record<string, string>;
};
const MAX_PACKAGES = 130;
const MAX_MEGABYTES = 70;

interface InstallFootprint {
  packages: number;
  megabytes: number;
  seconds: number;
  names: Set<string>;
}

/** npm's environment of a parent `npm run bench` would point the child npm at the checkout. */
function cleanEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !/^npm_(package|lifecycle|config_(prefix|local_prefix|global))/i.test(key),
    ),
  );
}

/** Bytes on disk under a folder, as `du` counts them (allocated blocks of files, links and folders). */
function folderBytes(folder: string): number {
  let total = lstatSync(folder).blocks * 512;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    total += entry.isDirectory() ? folderBytes(path) : lstatSync(path).blocks * 512;
  }
  return total;
}

/** Installs one package spec alone, production dependencies only, and measures what it brought. */
function installAlone(spec: string, workspace: string): InstallFootprint {
  const folder = mkdtempSync(join(workspace, 'install-'));
  writeFileSync(join(folder, 'package.json'), '{ "name": "install-bench", "private": true }\n');
  const start = process.hrtime.bigint();
  execFileSync(
    'npm',
    [
      'install',
      spec,
      '--omit=dev',
      '--omit=optional',
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
    ],
    { cwd: folder, env: cleanEnvironment(), stdio: 'pipe' },
  );
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const lock = JSON.parse(readFileSync(join(folder, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean; optional?: boolean; peer?: boolean }>;
  };
  const installed = Object.keys(lock.packages).filter((key) => key.startsWith('node_modules/'));
  const names = new Set(
    installed.map((key) => key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length)),
  );
  return {
    packages: installed.length,
    megabytes: folderBytes(join(folder, 'node_modules')) / 2 ** 20,
    seconds,
    names,
  };
}

export async function runInstallBench(): Promise<BenchRow[]> {
  const workspace = mkdtempSync(join(tmpdir(), 'protolink-install-bench-'));
  try {
    execFileSync('npm', ['pack', '--pack-destination', workspace, '--loglevel=error'], {
      cwd: root,
      env: cleanEnvironment(),
      stdio: 'pipe',
    });
    const tarball = readdirSync(workspace).find((file) => file.endsWith('.tgz'))!;
    const ours = installAlone(join(workspace, tarball), workspace);
    const peers: [string, string][] = [
      ['ai', `ai@${manifest.devDependencies.ai}`],
      ['@langchain/core', `@langchain/core@${manifest.devDependencies['@langchain/core']}`],
      ['@openai/agents', `@openai/agents@${manifest.devDependencies['@openai/agents']}`],
    ];
    const measured = peers.map(([name, spec]) => ({ name, footprint: installAlone(spec, workspace) }));
    const agents = measured.find((entry) => entry.name === '@openai/agents')!.footprint;
    const compilers = ['typescript', 'ts-node', 'typescript-json-schema'].filter((name) =>
      ours.names.has(name),
    );
    const rows: BenchRow[] = [
      {
        group: 'install',
        name: 'protolink (packed): packages',
        value: ours.packages,
        unit: 'packages',
        ratio: ours.packages / agents.packages,
        note: `ratio to @openai/agents; target ≤ ${MAX_PACKAGES}: ${ours.packages <= MAX_PACKAGES ? 'met' : 'NOT met'}`,
      },
      {
        group: 'install',
        name: 'protolink (packed): disk (du)',
        value: ours.megabytes,
        unit: 'MB',
        ratio: ours.megabytes / agents.megabytes,
        note: `ratio to @openai/agents; target ≤ ${MAX_MEGABYTES} MB: ${ours.megabytes <= MAX_MEGABYTES ? 'met' : 'NOT met'}; compiler in the install: ${compilers.length ? `YES (${compilers.join(', ')})` : 'none'}`,
      },
      {
        group: 'install',
        name: 'protolink (packed): npm install time',
        value: ours.seconds,
        unit: 's',
        note: 'from the local npm cache; informational',
      },
    ];
    for (const { name, footprint } of measured) {
      rows.push(
        { group: 'install', name: `${name}: packages`, value: footprint.packages, unit: 'packages' },
        { group: 'install', name: `${name}: disk (du)`, value: footprint.megabytes, unit: 'MB' },
      );
    }
    return rows;
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}
