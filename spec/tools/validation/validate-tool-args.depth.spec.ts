import { ToolValidationError } from '../../../lib/errors/tool-validation-error';
import type { JsonSchema } from '../../../lib/tools/json-schema';
import {
  prepareToolArgs,
  validatePreparedToolArgs,
  validateToolArgs,
} from '../../../lib/tools/validation/validate-tool-args';

/** `{ [key]: { [key]: … {} } }`, `levels` deep, built without recursion. */
function nested(key: string, levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let level = 0; level < levels; level += 1) value = { [key]: value };
  return value;
}

function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

const tree: JsonSchema = {
  type: 'object',
  properties: { child: { $ref: '#' }, next: { anyOf: [{ type: 'null' }, { $ref: '#/$defs/node' }] } },
  $defs: { node: { allOf: [{ $ref: '#' }] } },
};

/** Limits so generous that only the call stack can stop the walk. */
const unbounded = { maxDepth: 10_000_000, maxNodes: 10_000_000, maxVisits: 100_000_000 };
const stackRanOut =
  'Invalid arguments: the arguments are nested too deeply to check (the call stack ran out); send flatter data';

describe('validateToolArgs on deeply nested arguments', () => {
  it('refuses input deeper than maxDepth through a recursive property with a ToolValidationError', () => {
    const error = catchError(() => validateToolArgs(nested('child', 100_000), tree, { toolName: 'tree' }));
    expect(error).toBeInstanceOf(ToolValidationError);
    expect((error as Error).message).toBe(
      `Invalid arguments for tool 'tree': ${Array(32).fill('child').join('.')}: is nested deeper than 32 levels`,
    );
  });

  it('refuses input deeper than maxDepth through a recursive alternative with a ToolValidationError', () => {
    const error = catchError(() => validateToolArgs(nested('next', 100_000), tree, { toolName: 'tree' }));
    expect(error).toBeInstanceOf(ToolValidationError);
    expect((error as Error).message).toMatch(
      /^Invalid arguments for tool 'tree': next: must match one of the allowed schemas \(next must be null, got object \| next\.next must match/,
    );
  });

  it('accepts recursive input within maxDepth', () => {
    expect(validateToolArgs(nested('child', 20), tree)).toEqual(nested('child', 20));
  });

  it.each<[string, JsonSchema]>([
    ['the coercing walk of a recursive schema', tree],
    ['the checked copy of a plain schema', { type: 'object', additionalProperties: true }],
  ])('answers a ToolValidationError, not a RangeError, when %s exhausts the stack', (_label, schema) => {
    const input = nested('child', 200_000);
    const error = catchError(() => validateToolArgs(input, schema, { limits: unbounded }));
    expect(error).toBeInstanceOf(ToolValidationError);
    expect((error as Error).message).toBe(stackRanOut);
    expect((error as Error).cause).toBeInstanceOf(RangeError);
    const prepared = prepareToolArgs(schema, { limits: unbounded });
    expect(catchError(() => validatePreparedToolArgs(input, prepared))).toEqual(error);
  });
});
