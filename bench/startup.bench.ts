import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { tool as langchainTool } from '@langchain/core/tools';
import { z } from 'zod';
import { Param } from '../lib/tools/decorators/param.decorator';
import { Tool } from '../lib/tools/decorators/tool.decorator';
import { NativeTool } from '../lib/tools/native-tool';
import { ToolRegistry } from '../lib/tools/registry/tool-registry';
import type { BenchRow } from './measure';

const root = join(__dirname, '..');
const timeRequire = join(__dirname, 'startup/time-require.js');
const builtEntry = join(root, 'dist/lib/index.js');
const builtCli = join(root, 'dist/lib/cli/main.js');
const TOOL_COUNT = 1_000;
/** Fresh processes per cold measurement (the median is reported). */
const COLD_ROUNDS = 9;
/** `protolink` may cost this multiple of requiring its runtime dependencies (the floor). */
const MAX_IMPORT_RATIO = 1.3;
/** Milliseconds `protolink --help` may take, whole process. */
const MAX_HELP_MILLIS = 300;
/** The runtime dependencies every program that imports protolink loads. */
const RUNTIME_DEPENDENCIES = ['reflect-metadata', 'class-validator', 'class-transformer'];
const ADD_SCHEMA = {
  type: 'object',
  properties: { a: { type: 'integer' }, b: { type: 'integer' } },
  required: ['a', 'b'],
  additionalProperties: false,
};

function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Milliseconds a fresh process spends requiring `modules` (time-require.js), one sample. */
function requireMillis(modules: readonly string[]): number {
  return Number(execFileSync(process.execPath, [timeRequire, ...modules], { cwd: root }).toString());
}

/** Milliseconds from spawning `node <args>` to its exit, one sample. */
function processMillis(args: readonly string[]): number {
  const start = process.hrtime.bigint();
  execFileSync(process.execPath, args, { cwd: root, stdio: 'ignore' });
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** The newest modification time of a file under `folder`. */
function newestChange(folder: string): number {
  return Math.max(
    ...readdirSync(folder, { withFileTypes: true }).map((entry) =>
      entry.isDirectory()
        ? newestChange(join(folder, entry.name))
        : statSync(join(folder, entry.name)).mtimeMs,
    ),
  );
}

/** Builds dist/ when it is missing or older than a file of lib/: the cold rows measure the built package. */
function ensureBuilt(): void {
  if (existsSync(builtEntry) && statSync(builtEntry).mtimeMs >= newestChange(join(root, 'lib'))) return;
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'ignore' });
}

/**
 * Cold start-up, each the median of {@link COLD_ROUNDS} fresh processes, interleaved so that the machine's
 * drift hits every measurement alike: requiring the runtime dependencies (the floor), requiring `protolink`,
 * `protolink --help` and, for scale, an empty node process.
 */
function measureColdStart(): { floor: number; entry: number; help: number; empty: number } {
  const samples = {
    floor: [] as number[],
    entry: [] as number[],
    help: [] as number[],
    empty: [] as number[],
  };
  for (let round = 0; round < COLD_ROUNDS; round += 1) {
    samples.floor.push(requireMillis(RUNTIME_DEPENDENCIES));
    samples.entry.push(requireMillis([builtEntry]));
    samples.help.push(processMillis([builtCli, '--help']));
    samples.empty.push(processMillis([timeRequire]));
  }
  return {
    floor: median(samples.floor),
    entry: median(samples.entry),
    help: median(samples.help),
    empty: median(samples.empty),
  };
}

/** Builds `count` classes of one decorated two-integer tool each, as `@Tool`/`@Param` would. */
function declareToolsets(count: number): object[] {
  const instances: object[] = [];
  for (let index = 0; index < count; index += 1) {
    class Toolset {
      add(a: number, b: number): number {
        return a + b;
      }
    }
    Reflect.defineMetadata('design:paramtypes', [Number, Number], Toolset.prototype, 'add');
    Param('a', { type: 'integer' })(Toolset.prototype, 'add', 0);
    Param('b', { type: 'integer' })(Toolset.prototype, 'add', 1);
    Tool({ name: `add_${index}`, description: 'Add two integers' })(
      Toolset.prototype,
      'add',
      Object.getOwnPropertyDescriptor(Toolset.prototype, 'add')!,
    );
    instances.push(new Toolset());
  }
  return instances;
}

/**
 * Start-up costs of SPEC section 11: requiring `protolink` cold (built `dist/`, against the cold require of
 * its runtime dependencies in the same run), `protolink --help`, and registering 1,000 decorated tools
 * (against 1,000 plain NativeTools and 1,000 LangChain `tool()`s).
 */
export async function runStartupBench(): Promise<BenchRow[]> {
  ensureBuilt();
  const cold = measureColdStart();
  const importRatio = cold.entry / cold.floor;

  const toolsets = declareToolsets(TOOL_COUNT);
  // The schema compiler loads with the first tool: loaded here, so that neither row below pays for it.
  new NativeTool({ name: 'warm_up', description: '', inputSchema: ADD_SCHEMA, func: (args) => args.a });
  let start = process.hrtime.bigint();
  const registry = new ToolRegistry();
  for (const instance of toolsets) registry.registerAll(instance);
  const decorated = Number(process.hrtime.bigint() - start) / 1e6;

  start = process.hrtime.bigint();
  const plain = new ToolRegistry();
  for (let index = 0; index < TOOL_COUNT; index += 1) {
    plain.register(
      new NativeTool({
        name: `add_${index}`,
        description: 'Add two integers',
        inputSchema: ADD_SCHEMA,
        func: (args) => args.a + args.b,
      }),
    );
  }
  const native = Number(process.hrtime.bigint() - start) / 1e6;

  start = process.hrtime.bigint();
  const schema = z.object({ a: z.number().int(), b: z.number().int() });
  const langchain = [];
  for (let index = 0; index < TOOL_COUNT; index += 1) {
    langchain.push(
      langchainTool(async (input: { a: number; b: number }) => input.a + input.b, {
        name: `add_${index}`,
        description: 'Add two integers',
        schema,
      }),
    );
  }
  const peer = Number(process.hrtime.bigint() - start) / 1e6;

  return [
    {
      group: 'startup',
      name: `cold require of ${RUNTIME_DEPENDENCIES.join(' + ')} (floor)`,
      value: cold.floor,
      unit: 'ms',
      ratio: 1,
      note: `the runtime dependencies of protolink; in-process time, median of ${COLD_ROUNDS} fresh processes`,
    },
    {
      group: 'startup',
      name: "cold require('protolink') (dist)",
      value: cold.entry,
      unit: 'ms',
      ratio: importRatio,
      note:
        `ratio = ÷ the floor; target ≤ ${MAX_IMPORT_RATIO}×: ${importRatio <= MAX_IMPORT_RATIO ? 'met' : 'NOT met'} ` +
        `(${importRatio.toFixed(2)}×); in-process time, median of ${COLD_ROUNDS} fresh processes interleaved ` +
        `with the floor's; SPEC: under 300 ms (${cold.entry < 300 ? 'met' : 'NOT met'})`,
    },
    {
      group: 'startup',
      name: 'protolink --help (dist/lib/cli/main.js)',
      value: cold.help,
      unit: 'ms',
      note:
        `whole process, spawn to exit; target < ${MAX_HELP_MILLIS} ms: ${cold.help < MAX_HELP_MILLIS ? 'met' : 'NOT met'}; ` +
        `an empty node process takes ${cold.empty.toFixed(0)} ms in the same run (median of ${COLD_ROUNDS})`,
    },
    {
      group: 'startup',
      name: `register ${TOOL_COUNT} decorated tools (scan + schemas + compile)`,
      value: decorated,
      unit: 'ms',
      ratio: decorated / native,
      note: `vs ${TOOL_COUNT} plain NativeTools; target under 1,000 ms`,
    },
    {
      group: 'startup',
      name: `register ${TOOL_COUNT} plain NativeTools`,
      value: native,
      unit: 'ms',
      ratio: 1,
    },
    {
      group: 'startup',
      name: `create ${TOOL_COUNT} LangChain tool()s (zod)`,
      value: peer,
      unit: 'ms',
      ratio: peer / native,
      note: 'peer, same run',
    },
  ];
}
