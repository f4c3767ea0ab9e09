import { ToolDefinitionError } from '../../errors/tool-definition-error';
import type { JsonSchema } from '../json-schema';
import { countCodePoints } from './coerce-scalar';
import type { CompileSchemaOptions } from './compile-schema-check';
import { compileUntrustedPattern } from './compile-untrusted-pattern';
import type { PatternMatcher } from './compile-untrusted-pattern';
import { getFormatCheck } from './format-checks';
import type { ValidationState } from './validation-state';

type Rule<T> = (value: T, path: string, state: ValidationState) => void;

/** Builds the `minLength`/`maxLength`/`pattern`/`format` rules of a string schema, or null when it has none. */
export function buildStringRules(
  node: JsonSchema,
  pointer: string,
  options: CompileSchemaOptions,
): Rule<string> | null {
  const rules: Rule<string>[] = [];
  const { minLength, maxLength } = node;
  if (typeof minLength === 'number') {
    rules.push((value, path, state) => {
      if (value.length < minLength || (value.length < minLength * 2 && countCodePoints(value) < minLength)) {
        state.addIssue(path, `must have at least ${minLength} character${minLength === 1 ? '' : 's'}`);
      }
    });
  }
  if (typeof maxLength === 'number') {
    rules.push((value, path, state) => {
      if (value.length > maxLength && countCodePoints(value) > maxLength) {
        state.addIssue(path, `must have at most ${maxLength} character${maxLength === 1 ? '' : 's'}`);
      }
    });
  }
  if (typeof node.pattern === 'string') {
    const pattern = buildPattern(node.pattern, `${pointer}/pattern`, options);
    rules.push((value, path, state) => {
      if (!pattern.test(value)) state.addIssue(path, `must match the pattern ${node.pattern}`);
    });
  }
  if (typeof node.format === 'string') {
    const format = node.format;
    const check = getFormatCheck(format, options.untrusted === true);
    if (check) {
      rules.push((value, path, state) => {
        if (!check(value)) state.addIssue(path, `must be a valid ${format}`);
      });
    }
  }
  if (rules.length === 0) return null;
  if (rules.length === 1) return rules[0];
  return (value, path, state) => {
    for (const rule of rules) rule(value, path, state);
  };
}

/**
 * Compiles a `pattern`: natively for our own schemas, with the linear-time engine for untrusted ones.
 *
 * @throws ToolDefinitionError for an invalid pattern, or an untrusted one the linear-time engine refuses.
 */
function buildPattern(source: string, pointer: string, options: CompileSchemaOptions): PatternMatcher {
  if (options.untrusted) return compilePatternAt(source, pointer);
  try {
    return new RegExp(source, 'u');
  } catch (unicodeError) {
    try {
      return new RegExp(source);
    } catch {
      throw new ToolDefinitionError(
        `The pattern at '${pointer}' is not a valid regular expression: ${source}`,
        {
          cause: unicodeError,
        },
      );
    }
  }
}

/**
 * Compiles an untrusted schema's pattern with the linear-time engine, naming where it sits on failure.
 *
 * @throws ToolDefinitionError when the engine refuses the pattern.
 */
export function compilePatternAt(source: string, pointer: string): PatternMatcher {
  try {
    return compileUntrustedPattern(source);
  } catch (error) {
    throw new ToolDefinitionError(`${(error as Error).message} (at '${pointer}')`, { cause: error });
  }
}

/** Builds the range and `multipleOf` rules of a numeric schema, or null when it has none. */
export function buildNumberBounds(node: JsonSchema): Rule<number> | null {
  const rules: Rule<number>[] = [];
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf } = node;
  if (typeof minimum === 'number') {
    rules.push((value, path, state) => {
      if (value < minimum) state.addIssue(path, `must be >= ${minimum}`);
    });
  }
  if (typeof maximum === 'number') {
    rules.push((value, path, state) => {
      if (value > maximum) state.addIssue(path, `must be <= ${maximum}`);
    });
  }
  if (typeof exclusiveMinimum === 'number') {
    rules.push((value, path, state) => {
      if (value <= exclusiveMinimum) state.addIssue(path, `must be > ${exclusiveMinimum}`);
    });
  }
  if (typeof exclusiveMaximum === 'number') {
    rules.push((value, path, state) => {
      if (value >= exclusiveMaximum) state.addIssue(path, `must be < ${exclusiveMaximum}`);
    });
  }
  if (typeof multipleOf === 'number' && multipleOf > 0) {
    rules.push((value, path, state) => {
      const quotient = value / multipleOf;
      if (Math.abs(quotient - Math.round(quotient)) > 1e-9)
        state.addIssue(path, `must be a multiple of ${multipleOf}`);
    });
  }
  if (rules.length === 0) return null;
  if (rules.length === 1) return rules[0];
  return (value, path, state) => {
    for (const rule of rules) rule(value, path, state);
  };
}
