import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { tool as langchainTool } from '@langchain/core/tools';
import { z } from 'zod';
import { Param } from '../lib/tools/decorators/param.decorator';
import { Tool } from '../lib/tools/decorators/tool.decorator';
import { NativeTool } from '../lib/tools/native-tool';
import { ToolRegistry } from '../lib/tools/registry/tool-registry';
import type { BenchRow } from './measure';

const root = join(__dirname, '..');
const TOOL_COUNT = 1_000;
const ADD_SCHEMA = {
  type: 'object',
  properties: { a: { type: 'integer' }, b: { type: 'integer' } },
  required: ['a', 'b'],
  additionalProperties: false,
};

/** Milliseconds a fresh `node` process takes to run `script`, the fastest of `rounds`. */
function coldMillis(script: string, rounds = 5): number {
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < rounds; round += 1) {
    const output = execFileSync(
      process.execPath,
      [
        '-e',
        `const s=process.hrtime.bigint();${script};process.stdout.write(String(Number(process.hrtime.bigint()-s)/1e6))`,
      ],
      {
        cwd: root,
      },
    );
    best = Math.min(best, Number(output.toString()));
  }
  return best;
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
 * Start-up costs of SPEC section 11: importing `protolink` cold (built `dist/`, against the cold import of its validation dependencies in
 * the same run) and registering 1,000 decorated tools (against 1,000 plain NativeTools and 1,000 LangChain
 * `tool()`s).
 */
export async function runStartupBench(): Promise<BenchRow[]> {
  if (!existsSync(join(root, 'dist/lib/index.js')))
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'ignore' });
  const floor = coldMillis("require('reflect-metadata');require('class-validator');require('ajv')");
  const importProtolink = coldMillis("require('./dist/lib/index.js')");

  const toolsets = declareToolsets(TOOL_COUNT);
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
      name: 'cold require of reflect-metadata + class-validator + ajv (floor)',
      value: floor,
      unit: 'ms',
      ratio: 1,
      note: 'the dependencies every validation path needs',
    },
    {
      group: 'startup',
      name: "cold require('protolink') (dist)",
      value: importProtolink,
      unit: 'ms',
      ratio: importProtolink / floor,
      note: 'whole process; target: import under 300 ms',
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
