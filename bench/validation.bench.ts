import 'reflect-metadata';
import Ajv from 'ajv';
import { IsInt, IsString, Min, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import { Param } from '../lib/tools/decorators/param.decorator';
import { Tool } from '../lib/tools/decorators/tool.decorator';
import { scanTools } from '../lib/tools/registry/scan-tools';
import { ToolRuntimeError } from '../lib/errors/tool-runtime-error';
import { validateToolArgs } from '../lib/tools/validation/validate-tool-args';
import type { BenchRow } from './measure';
import { judge, measureMicros, measureSyncMicros } from './measure';

class Guest {
  @IsString() name!: string;
  @IsInt() @Min(0) age!: number;
}

class Booking {
  @IsString() location!: string;
  @IsInt() @Min(1) guests!: number;
  @ValidateNested({ each: true }) @Type(() => Guest) people!: Guest[];
}

class BenchTools {
  @Tool({ name: 'add', description: 'Add two integers' })
  add(@Param('a', { type: 'integer' }) a: number, @Param('b', { type: 'integer' }) b: number): number {
    return a + b;
  }

  @Tool({ name: 'book', description: 'Book' })
  book(@Param('booking') booking: Booking): number {
    return booking.guests;
  }
}

/** Per-call cost of validation + call against the floor (a compiled Ajv validate + direct call). */
export async function runValidationBench(): Promise<BenchRow[]> {
  const [add, book] = scanTools(new BenchTools());
  const ajv = new Ajv();
  const validateFloor = ajv.compile(add.inputSchema);
  const direct = (args: { a: number; b: number }) => args.a + args.b;
  const args = { a: 2, b: 3 };
  const floor = measureSyncMicros(() => validateFloor(args) && direct(args));
  const validateOnly = measureSyncMicros(() =>
    direct(validateToolArgs(args, add.inputSchema) as { a: number; b: number }),
  );
  const toolCall = await measureMicros(() => add.call(args), { iterations: 100_000 });
  const nestedArgs = {
    booking: {
      location: 'Athens',
      guests: 2,
      people: [
        { name: 'Ada', age: 36 },
        { name: 'Alan', age: 41 },
      ],
    },
  };
  const nestedFloorValidate = ajv.compile(book.inputSchema);
  const nestedFloor = measureSyncMicros(() => nestedFloorValidate(nestedArgs) && nestedArgs.booking.guests);
  const nestedCall = await measureMicros(() => book.call(nestedArgs), { iterations: 20_000 });
  return [
    ...measureUntrustedPatterns(),
    {
      group: 'validation',
      name: 'floor: Ajv validate + direct call (two integers)',
      value: floor,
      unit: 'µs/call',
      ratio: 1,
    },
    {
      group: 'validation',
      name: 'validateToolArgs + call (two integers)',
      value: validateOnly,
      unit: 'µs/call',
      ratio: validateOnly / floor,
      note: judge(validateOnly / floor, '≤', 3),
    },
    {
      group: 'validation',
      name: 'NativeTool.call (two integers)',
      value: toolCall,
      unit: 'µs/call',
      ratio: toolCall / floor,
      note: 'includes the promise',
    },
    {
      group: 'validation',
      name: 'floor: Ajv validate, nested DTO',
      value: nestedFloor,
      unit: 'µs/call',
      ratio: 1,
    },
    {
      group: 'validation',
      name: 'NativeTool.call, nested DTO (schema; class-validator only for what it cannot say)',
      value: nestedCall,
      unit: 'µs/call',
      ratio: nestedCall / nestedFloor,
      note: `the schema covers every constraint: the DTO instances are built while the arguments are copied, class-validator is skipped; ${judge(nestedCall / nestedFloor, '≤', 10)}`,
    },
  ];
}

/** Patterns that backtrack catastrophically in a native engine (the review of issue 16 froze on them). */
const CATASTROPHIC_PATTERNS = ['^(a|a)*$', '^a*a*a*a*a*a*a*a*$'];

/**
 * An MCP server's catastrophic patterns on 10,000-character arguments, through `validateToolArgs` with an
 * untrusted schema (the linear-time engine): a rejected argument (the attack) and an accepted one (walker
 * and Ajv both run the pattern). Natively the first would not finish.
 */
function measureUntrustedPatterns(): BenchRow[] {
  const rows: BenchRow[] = [];
  for (const pattern of CATASTROPHIC_PATTERNS) {
    const schema = {
      type: 'object',
      properties: { text: { type: 'string', pattern } },
      required: ['text'],
    };
    const accepted = { text: 'a'.repeat(10_000) };
    const rejected = { text: `${'a'.repeat(10_000)}!` };
    const reject = (): void => {
      try {
        validateToolArgs(rejected, schema, { untrusted: true });
      } catch {
        return;
      }
      throw new ToolRuntimeError(`The pattern ${pattern} accepted an argument it must refuse.`);
    };
    const options = { iterations: 10, rounds: 5 };
    for (const [label, run] of [
      ['refused', reject],
      ['accepted', () => validateToolArgs(accepted, schema, { untrusted: true })],
    ] as const) {
      const millis = measureSyncMicros(run, options) / 1000;
      rows.push({
        group: 'validation',
        name: `untrusted pattern ${pattern}, 10,000 characters, ${label}`,
        value: millis,
        unit: 'ms',
        note: 'target < 50 ms each (linear-time engine; natively it never finishes)',
      });
    }
  }
  return rows;
}
