import { ToolValidationError } from '../../../lib/errors/tool-validation-error';
import type { JsonSchema } from '../../../lib/tools/json-schema';
import { validateToolArgs } from '../../../lib/tools/validation/validate-tool-args';
import { DEFAULT_VALIDATION_LIMITS } from '../../../lib/tools/validation/validation-limits';
import { ValidationState } from '../../../lib/tools/validation/validation-state';

/** Two overlapping recursive branches: without a shared budget, a failing leaf costs 2^depth branch walks. */
const ambiguous: JsonSchema = {
  type: 'object',
  properties: { value: { $ref: '#/$defs/Node' } },
  $defs: {
    Node: {
      anyOf: [
        { type: 'array', items: { $ref: '#/$defs/Node' } },
        { type: 'array', items: { $ref: '#/$defs/Node' } },
        { type: 'integer' },
      ],
    },
  },
};

function nest(depth: number, leaf: unknown): unknown {
  let value = leaf;
  for (let level = 0; level < depth; level += 1) value = [value];
  return value;
}

describe('ValidationState', () => {
  describe('countNode', () => {
    it('stops at maxNodes with an issue that says to send less data', () => {
      const state = new ValidationState({ ...DEFAULT_VALIDATION_LIMITS, maxNodes: 2 });
      expect([state.countNode('a'), state.countNode('b'), state.countNode('c')]).toEqual([true, true, false]);
      expect(state.issues).toEqual([
        { path: 'c', message: 'the arguments hold more than 2 values; send less data' },
      ]);
    });

    it('stops every trial once the shared visit budget is spent', () => {
      const state = new ValidationState({ ...DEFAULT_VALIDATION_LIMITS, maxVisits: 3 });
      const trial = state.startTrial();
      expect([trial.countNode('a'), trial.countNode('b'), state.countNode('c')]).toEqual([true, true, true]);
      expect(state.startTrial().countNode('d')).toBe(false);
      expect(state.workExhausted).toBe(true);
      expect(state.countNode('e')).toBe(false);
    });
  });

  describe('startTrial', () => {
    it('keeps its own issues and starts from the current node count', () => {
      const state = new ValidationState(DEFAULT_VALIDATION_LIMITS);
      state.countNode('a');
      const trial = state.startTrial();
      trial.addIssue('x', 'wrong');
      expect(trial.nodes).toBe(1);
      expect(state.issues).toEqual([]);
    });
  });
});

describe('validateToolArgs work budget', () => {
  it('still accepts valid data against nested alternatives', () => {
    expect(validateToolArgs({ value: nest(30, 7) }, ambiguous)).toEqual({ value: nest(30, 7) });
  });

  it('rejects a small input that would need exponential work, with a clear message', () => {
    let caught: unknown;
    try {
      validateToolArgs({ value: nest(30, 'x') }, ambiguous, { toolName: 'nested' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ToolValidationError);
    expect((caught as ToolValidationError).message).toBe(
      "Invalid arguments for tool 'nested': the arguments are too deeply nested or ambiguous to check against this schema; send simpler data",
    );
  });

  it('rejects a failing leaf with the normal message when the budget suffices', () => {
    expect(() => validateToolArgs({ value: nest(3, 'x') }, ambiguous)).toThrow(
      /value: must match one of the allowed schemas/,
    );
  });

  it('honours a smaller maxVisits limit', () => {
    expect(() => validateToolArgs({ value: nest(8, 'x') }, ambiguous, { limits: { maxVisits: 50 } })).toThrow(
      /too deeply nested or ambiguous/,
    );
  });
});
