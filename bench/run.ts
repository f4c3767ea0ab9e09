// `npm run bench`: runs every bench/*.bench.ts, prints one markdown table and writes bench/results.md.
import 'reflect-metadata';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import type { BenchRow } from './measure';

type LooseRow = Partial<BenchRow> & { perCallMicros?: number; [key: string]: unknown };

function normalizeRow(group: string, row: LooseRow): BenchRow {
  const value =
    typeof row.value === 'number'
      ? row.value
      : typeof row.perCallMicros === 'number'
        ? row.perCallMicros
        : Number.NaN;
  return {
    group: row.group ?? group,
    name: String(row.name ?? '?'),
    value,
    unit: row.unit ?? (row.perCallMicros !== undefined ? 'µs/call' : ''),
    ratio: typeof row.ratio === 'number' ? row.ratio : undefined,
    note: row.note,
  };
}

function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  if (Math.abs(value) >= 1000) return value.toFixed(0);
  if (Math.abs(value) >= 10) return value.toFixed(1);
  return value.toFixed(3);
}

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const files = readdirSync(__dirname)
    .filter((file) => file.endsWith('.bench.ts'))
    .filter((file) => only.length === 0 || only.some((name) => file.includes(name)))
    .sort();
  const rows: BenchRow[] = [];
  for (const file of files) {
    const group = file.replace(/\.bench\.ts$/, '');
    const module = require(join(__dirname, file)) as Record<string, unknown>;
    const runner = Object.entries(module).find(
      ([name, value]) => /^run.*Bench$/.test(name) && typeof value === 'function',
    );
    if (!runner) continue;
    process.stderr.write(`bench: ${group}…\n`);
    try {
      const result = (await (runner[1] as () => Promise<LooseRow[]>)()) ?? [];
      rows.push(...result.map((row) => normalizeRow(group, row)));
    } catch (error) {
      rows.push({ group, name: `failed: ${(error as Error).message}`, value: Number.NaN, unit: '' });
    }
  }
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${process.platform}/${process.arch}`;
  // A filtered run (`bench/run.ts agent`) replaces only its groups' rows; the other groups' rows stay.
  const kept =
    only.length > 0 ? keptRows(join(__dirname, 'results.md'), new Set(rows.map((row) => row.group))) : [];
  const lines = [
    '# Protolink benchmark report',
    '',
    `Machine: ${machine}. Date: ${new Date().toISOString()}.`,
    'Every ratio compares against a floor or peer measured in the same run.',
    '',
    '| group | measurement | value | unit | ratio | note |',
    '|---|---|---:|---|---:|---|',
    ...[
      ...kept,
      ...rows.map(
        (row) =>
          `| ${row.group} | ${row.name} | ${formatNumber(row.value)} | ${row.unit} | ${row.ratio === undefined ? '' : `${formatNumber(row.ratio)}×`} | ${row.note ?? ''} |`,
      ),
    ].sort((left, right) => groupOf(left).localeCompare(groupOf(right))),
    '',
  ];
  const report = lines.join('\n');
  process.stdout.write(report);
  writeFileSync(join(__dirname, 'results.md'), report);
}

/** The table rows of an earlier report whose group did not run this time. */
function keptRows(path: string, ran: ReadonlySet<string>): string[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => /^\| [^|]+ \|/.test(line) && !line.startsWith('| group |') && !line.startsWith('|---'))
    .filter((line) => !ran.has(groupOf(line)));
}

function groupOf(line: string): string {
  return line.split('|')[1]?.trim() ?? '';
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
});
