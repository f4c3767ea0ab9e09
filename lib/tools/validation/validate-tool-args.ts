import { ToolDefinitionError } from '../../errors/tool-definition-error';
import { ToolValidationError } from '../../errors/tool-validation-error';
import { lazyRequire } from '../../runtime/lazy-require';
import type { JsonSchema } from '../json-schema';
import { getCompiledValidator } from './compiled-validator';
import type { CompiledValidator } from './compiled-validator';
import { isPlainRecord } from './copy-json-value';
import type { DtoArgsPlan } from './try-build-dto-args';
import { NOT_COPIED, tryCopyJson } from './try-copy-json';
import type { DtoBinding } from './validate-dto-args';
import { DEFAULT_VALIDATION_LIMITS } from './validation-limits';
import type { ValidationLimits } from './validation-limits';
import { TOO_COMPLEX, ValidationState } from './validation-state';

// The DTO stages (class-validator checks, instance builders) load with the first DTO-typed tool.
const loadDtoArgsBuilder = lazyRequire((): typeof import('./try-build-dto-args') =>
  require('./try-build-dto-args'),
);
const loadDtoArgsValidator = lazyRequire((): typeof import('./validate-dto-args') =>
  require('./validate-dto-args'),
);

/** Options of {@link validateToolArgs}. */
export interface ValidateToolArgsOptions {
  /** Named in the error message. */
  toolName?: string;
  /** The schema came from outside (an MCP server): its patterns and formats run in a linear-time engine. */
  untrusted?: boolean;
  /** Bounds on size and depth (defaults: {@link DEFAULT_VALIDATION_LIMITS}). */
  limits?: Partial<ValidationLimits>;
  /** DTO classes to rebuild and check with class-validator after the schema stage. */
  dto?: DtoBinding;
}

/**
 * Validates untrusted tool arguments against a JSON Schema and returns a new, coerced object.
 *
 * Coercion is conservative: `"2"` → 2 for integer/number (integers only from `[+-]digits`), `"true"/"false"/
 * "yes"/"no"/"1"/"0"` → boolean, integral floats → integer; nothing is coerced to a string. `null` for an
 * optional property that does not accept null means "absent"; defaults are filled with deep copies; unknown
 * fields are rejected when `additionalProperties` is false. The whole schema is enforced (lengths in code
 * points, ranges, patterns, formats, enums, const, items, anyOf/oneOf/allOf), then Ajv checks the result,
 * then DTO classes are rebuilt and checked by class-validator. The input is never mutated, and the keys
 * `__proto__`, `constructor` and `prototype` never reach a prototype. A legacy field map (`{ a: 'int' }`) is
 * read as `normalizeSchema` reads it (see `toValidationSchema`). However deep the arguments, the answer is
 * the result or a {@link ToolValidationError}, never a stack overflow.
 *
 * @throws ToolValidationError listing every problem with its path.
 * @throws ToolDefinitionError when the schema itself cannot be compiled (naming `toolName` when given): it
 * is neither a JSON Schema nor a legacy field map, or it loops back on itself without descending into
 * the value.
 */
export function validateToolArgs(
  args: unknown,
  inputSchema: JsonSchema | null | undefined,
  options: ValidateToolArgsOptions = {},
): Record<string, unknown> {
  const limits = options.limits
    ? { ...DEFAULT_VALIDATION_LIMITS, ...options.limits }
    : DEFAULT_VALIDATION_LIMITS;
  const compiled = compileInputSchema(inputSchema, options);
  const plan = options.dto && compiled.plain ? loadDtoArgsBuilder().getDtoArgsPlan(options.dto) : null;
  return validateCompiled(args, compiled, plan, limits, options);
}

/**
 * What {@link validateToolArgs} looks up on every call (the compiled validator, the DTO plan, the limits),
 * looked up once: a tool that validates the same way on every call keeps one.
 */
export interface PreparedToolArgs {
  readonly compiled: CompiledValidator;
  readonly plan: DtoArgsPlan | null;
  readonly limits: ValidationLimits;
  readonly options: ValidateToolArgsOptions;
}

/**
 * Prepares {@link validateToolArgs} for one schema and options (which must not change afterwards).
 *
 * @throws ToolDefinitionError when the schema cannot be compiled (as {@link validateToolArgs} says).
 */
export function prepareToolArgs(
  inputSchema: JsonSchema | null | undefined,
  options: ValidateToolArgsOptions = {},
): PreparedToolArgs {
  const compiled = compileInputSchema(inputSchema, options);
  return Object.freeze({
    compiled,
    plan: options.dto && compiled.plain ? loadDtoArgsBuilder().getDtoArgsPlan(options.dto) : null,
    limits: options.limits ? { ...DEFAULT_VALIDATION_LIMITS, ...options.limits } : DEFAULT_VALIDATION_LIMITS,
    options,
  });
}

/** {@link validateToolArgs} with what it looks up prepared by {@link prepareToolArgs}. */
export function validatePreparedToolArgs(args: unknown, prepared: PreparedToolArgs): Record<string, unknown> {
  return validateCompiled(args, prepared.compiled, prepared.plan, prepared.limits, prepared.options);
}

function compileInputSchema(
  inputSchema: JsonSchema | null | undefined,
  options: ValidateToolArgsOptions,
): CompiledValidator {
  try {
    return getCompiledValidator(inputSchema ?? {}, options.untrusted);
  } catch (error) {
    if (options.toolName === undefined || !(error instanceof ToolDefinitionError)) throw error;
    throw new ToolDefinitionError(
      `Tool '${options.toolName}' has an input schema that cannot be used: ${error.message}`,
      { cause: error, toolName: options.toolName },
    );
  }
}

function validateCompiled(
  args: unknown,
  compiled: CompiledValidator,
  plan: DtoArgsPlan | null,
  limits: ValidationLimits,
  options: ValidateToolArgsOptions,
): Record<string, unknown> {
  const input = args === undefined || args === null ? {} : args;
  // The common case first: a literal or parsed object (isPlainRecord's instanceof checks cost more).
  if (
    !(
      typeof input === 'object' &&
      Object.getPrototypeOf(input) === Object.prototype &&
      !Array.isArray(input) &&
      !ArrayBuffer.isView(input)
    ) &&
    !isPlainRecord(input)
  ) {
    throw new ToolValidationError({
      toolName: options.toolName,
      issues: [
        {
          path: '',
          message: `the arguments must be one JSON object, got ${Array.isArray(input) ? 'an array' : typeof input}`,
        },
      ],
    });
  }
  let result: Record<string, unknown> | undefined;
  // DTO classes that need class-validator run after the schema stage, outside its stack-overflow guard.
  let checkDto = options.dto !== undefined;
  try {
    if (compiled.plain) {
      // Fast path: a checked deep copy that Ajv accepts as it is needs no coercion; anything else takes the
      // full walk, which reports every problem. DTOs that need no class-validator are built by the copy itself.
      const copy = plan
        ? loadDtoArgsBuilder().tryBuildDtoArgs(input, plan, limits)
        : tryCopyJson(input, limits);
      if (copy !== NOT_COPIED && compiled.ajvForCopies()(copy) === null) {
        result = copy as Record<string, unknown>;
        checkDto = checkDto && !plan;
      }
    }
    result ??= walkSchema(input, compiled, limits, options);
  } catch (error) {
    // Every walk stops at `maxDepth`, but a large `maxDepth`, or a caller already deep in the stack, can
    // still exhaust the stack: the arguments are then too deep to check, which is an answer, not a crash.
    if (!(error instanceof RangeError)) throw error;
    throw new ToolValidationError({
      toolName: options.toolName,
      issues: [{ path: '', message: STACK_EXHAUSTED }],
      cause: error,
    });
  }
  return checkDto
    ? loadDtoArgsValidator().validateDtoArgs(result, options.dto as DtoBinding, options.toolName)
    : result;
}

const STACK_EXHAUSTED =
  'the arguments are nested too deeply to check (the call stack ran out); send flatter data';

/** The full coercing walk, then Ajv on its result. */
function walkSchema(
  input: object,
  compiled: CompiledValidator,
  limits: ValidationLimits,
  options: ValidateToolArgsOptions,
): Record<string, unknown> {
  const state = new ValidationState(limits);
  const result = compiled.check(input, '', 0, state) as Record<string, unknown>;
  if (state.workExhausted) {
    throw new ToolValidationError({
      toolName: options.toolName,
      issues: [{ path: '', message: TOO_COMPLEX }],
    });
  }
  if (state.issues.length > 0) {
    throw new ToolValidationError({ toolName: options.toolName, issues: state.collectIssues() });
  }
  const ajvIssue = compiled.ajv()(result);
  if (ajvIssue) throw new ToolValidationError({ toolName: options.toolName, issues: [ajvIssue] });
  return result;
}
