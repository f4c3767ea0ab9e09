import { ToolDefinitionError } from '../errors/tool-definition-error';
import { readTaskSupport } from './task-support';
import type { TaskSupport } from './task-support';
import { assertKnownOptions } from '../runtime/assert-known-options';
import { copyData } from '../runtime/deep-freeze';
import { readCapabilityList } from '../capabilities/capability-name';
import { RunAction } from '../runtime/run-action';
import { RunContext } from '../runtime/run-context';
import type { BaseTool, ToolCallOptions } from './base-tool';
import type { JsonSchema } from './json-schema';
import { normalizeSchema } from './schema/normalize-schema';
import type { SchemaSource } from './schema/normalize-schema';
import { NATIVE_TOOL_OPTIONS } from './native-tool-options';
import type { NativeToolOptions } from './native-tool-options';
import { assertToolName, TOOL_NAME_PATTERN } from './tool-name';
import type { ActionBuilder, ToolFunction } from './tool-types';
import { getCompiledValidator } from './validation/compiled-validator';
import type { DtoBinding } from './validation/validate-dto-args';
import { prepareToolArgs, validatePreparedToolArgs } from './validation/validate-tool-args';
import type { PreparedToolArgs } from './validation/validate-tool-args';
import { validateToolOutput } from './validation/validate-tool-output';
import type { ValidationLimits } from './validation/validation-limits';

export type { NativeToolOptions } from './native-tool-options';

/**
 * Adapts a sync or async function to {@link BaseTool}: normalized schemas, validated and coerced arguments,
 * and the RunAction the agent's policy evaluates.
 */
export class NativeTool implements BaseTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  /**
   * The input schema exactly as given, when it was given as a JSON Schema object (null when derived from a
   * DTO or parameters): served over MCP it is advertised unchanged (`$schema`, `$defs`, `$ref` kept), while
   * validation and model exports use the normalized {@link inputSchema}.
   */
  readonly declaredInputSchema: JsonSchema | null;
  /** JSON Schema of the result, or null when nothing says what the tool returns. */
  readonly outputSchema: JsonSchema | null;
  readonly tags: string[];
  readonly examples: unknown[];
  readonly capabilities: readonly string[];
  readonly metadata: Readonly<Record<string, unknown>>;
  /** Whether the tool may run as an MCP task (`optional`, `required`) or not (`forbidden`, the default). */
  readonly taskSupport: TaskSupport;
  private readonly func: ToolFunction;
  private readonly actionBuilder: ActionBuilder | null;
  private readonly validateOutput: boolean;
  private readonly untrusted: boolean;
  private readonly dto: DtoBinding | undefined;
  // The compiled validator, DTO plan and options every call validates with (prepared on first use).
  private preparedArgs: PreparedToolArgs | undefined;
  private readonly limits: Partial<ValidationLimits> | undefined;
  private readonly usesContext: boolean;

  /**
   * @throws ToolDefinitionError for a bad name, a missing function, a function with parameters but no
   *   `inputSchema`, `validateOutput` without an `outputSchema`, capabilities that are not a list of
   *   capability names, a schema that cannot be compiled, or an option that is not known (the original's
   *   `args` included).
   */
  constructor(options: NativeToolOptions) {
    if (typeof options !== 'object' || options === null) {
      throw new ToolDefinitionError('new NativeTool() needs an options object: { name, description, func }.');
    }
    assertKnownOptions(options, NATIVE_TOOL_OPTIONS, toolSubject(options.name));
    assertToolName(options.name);
    if (typeof options.func !== 'function') {
      throw new ToolDefinitionError(
        `Tool '${options.name}' needs a function: pass { func: (args, context) => … }.`,
        {
          toolName: options.name,
        },
      );
    }
    if (options.actionBuilder != null && typeof options.actionBuilder !== 'function') {
      throw new ToolDefinitionError(
        `Tool '${options.name}': actionBuilder must be a function returning a RunAction.`,
        {
          toolName: options.name,
        },
      );
    }
    if ((options.inputSchema === undefined || options.inputSchema === null) && options.func.length > 0) {
      throw new ToolDefinitionError(
        `Tool '${options.name}' has a function that takes arguments but no inputSchema, so every call with arguments would be refused ("this tool takes no arguments"). Pass inputSchema: a DTO class or a JSON Schema such as { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }; or declare the tool with @Tool on a class method, whose @Param parameters become its schema. A tool that takes no arguments but reads its context passes inputSchema: {}.`,
        { toolName: options.name },
      );
    }
    this.name = options.name;
    this.description = typeof options.description === 'string' ? options.description : '';
    this.untrusted = options.preserveSchema === true;
    this.inputSchema = this.buildSchema(options.inputSchema, 'Input');
    this.declaredInputSchema = isJsonSchemaObject(options.inputSchema)
      ? (deepFreezeCopy(options.inputSchema) as JsonSchema)
      : null;
    this.outputSchema =
      options.outputSchema === undefined || options.outputSchema === null
        ? null
        : this.buildSchema(options.outputSchema, 'Output');
    this.tags = [...(options.tags ?? [])].map(String);
    this.examples = [...(options.examples ?? [])];
    this.capabilities = readToolCapabilities(options.name, options.capabilities);
    this.metadata = Object.freeze({ ...(options.metadata ?? {}) });
    this.taskSupport = readTaskSupport(options.task, `Tool '${options.name}'`);
    this.func = options.func;
    this.actionBuilder = options.actionBuilder ?? null;
    this.validateOutput = options.validateOutput === true;
    if (this.validateOutput && this.outputSchema === null) {
      throw new ToolDefinitionError(
        `Tool '${this.name}' asks for validateOutput but has no output schema to check results against. Pass outputSchema (a JSON Schema or a DTO class); for a @Tool method returning Promise<T> or an object type, give @Tool({ outputSchema }) or load the manifest of 'protolink schemas' (new ToolRegistry({ manifest: loadSchemaManifest(path) })). Or drop validateOutput.`,
        { toolName: this.name },
      );
    }
    this.dto = options.dto ? freezeBinding(options.dto) : undefined;
    // Copied: validation is prepared once, so later changes to the caller's object would be ignored anyway.
    this.limits = options.limits ? Object.freeze({ ...options.limits }) : undefined;
    this.usesContext = options.usesContext ?? options.func.length >= 2;
    try {
      getCompiledValidator(this.inputSchema, this.untrusted);
    } catch (error) {
      throw new ToolDefinitionError(
        `Tool '${this.name}' has an input schema that cannot be used: ${(error as Error).message}`,
        {
          cause: error,
          toolName: this.name,
        },
      );
    }
  }

  /** Whether an `actionBuilder` prepares this tool's actions (else the default action is built). */
  get hasActionBuilder(): boolean {
    return this.actionBuilder !== null;
  }

  /**
   * Whether the function reads its RunContext (`usesContext`, by default: it declares a second parameter).
   * A tool that does not can never report progress, log, ask the user or close its stream.
   */
  get readsContext(): boolean {
    return this.usesContext;
  }

  /**
   * Returns a new validated, coerced copy of `args` (DTO-typed parameters rebuilt as instances).
   *
   * @throws ToolValidationError listing every problem with its path.
   */
  validateArgs(args?: unknown): Record<string, unknown> {
    this.preparedArgs ??= prepareToolArgs(
      this.inputSchema,
      Object.freeze({ toolName: this.name, untrusted: this.untrusted, dto: this.dto, limits: this.limits }),
    );
    return validatePreparedToolArgs(args, this.preparedArgs);
  }

  /**
   * Validates the arguments, then runs the function; errors from the function propagate unchanged.
   *
   * @throws ToolValidationError before the function runs when the arguments are invalid.
   */
  call(args?: Record<string, unknown>, options?: ToolCallOptions): Promise<unknown> {
    // Not `async`: a synchronous function's value settles the call in one tick, not three.
    let validated: Record<string, unknown>;
    try {
      validated = this.validateArgs(args);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.invoke(validated, options);
  }

  /**
   * Runs the function on validated arguments in `context` and returns what it returned, a value or a
   * promise, without an async wrapper (the agent's quiet call path saves the promise hops); throws what it
   * throws. Output validation, when on, applies as in {@link invoke}.
   *
   * @internal
   */
  runValidated(validated: Record<string, unknown>, context: RunContext | undefined): unknown {
    const result = this.func(validated, context as RunContext);
    const schema = this.validateOutput ? this.outputSchema : null;
    if (schema === null) return result;
    const validate = (value: unknown) => validateToolOutput(value, schema, this.name);
    return isPromiseLike(result) ? Promise.resolve(result).then(validate) : validate(result);
  }

  /** Runs the function on arguments that were already validated by {@link validateArgs}. */
  invoke(validated: Record<string, unknown>, options?: ToolCallOptions): Promise<unknown> {
    try {
      return Promise.resolve(this.runValidated(validated, this.contextFor(options)));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** The context the function gets: the caller's, else a fresh one for a function that reads it. */
  private contextFor(options: ToolCallOptions | undefined): RunContext | undefined {
    return options?.context ?? (this.usesContext ? new RunContext({ signal: options?.signal }) : undefined);
  }

  /**
   * Returns the RunAction the policy evaluates for validated arguments: kind `tool.call`, the name, the
   * description, `payload.arguments` and the capabilities (always merged back into a builder's action).
   *
   * @throws ToolDefinitionError when the action builder returns something other than a RunAction.
   */
  async prepareAction(args: Record<string, unknown>, context?: RunContext): Promise<RunAction> {
    const runContext = context ?? new RunContext({});
    if (!this.actionBuilder) {
      return new RunAction({
        kind: 'tool.call',
        name: this.name,
        description: this.description || undefined,
        payload: { arguments: args },
        capabilities: this.capabilities,
      });
    }
    // The builder gets a copy: changing it in place cannot slip unvalidated arguments past the agent,
    // which validates whatever the returned action's payload holds.
    const built = await this.actionBuilder(copyData(args), runContext);
    if (!(built instanceof RunAction)) {
      throw new ToolDefinitionError(
        `The actionBuilder of tool '${this.name}' must return a RunAction (new RunAction({ kind, name, … })), got ${built === null ? 'null' : typeof built}.`,
        { toolName: this.name },
      );
    }
    const merged = [...new Set([...built.capabilities, ...this.capabilities])];
    return merged.length === built.capabilities.length ? built : built.withCapabilities(merged);
  }

  private buildSchema(source: SchemaSource, suffix: 'Input' | 'Output'): JsonSchema {
    const title = `${this.name}${suffix}`;
    if (this.untrusted && source && typeof source === 'object') return structuredClone(source) as JsonSchema;
    try {
      return normalizeSchema(source, title);
    } catch (error) {
      throw new ToolDefinitionError(`Tool '${this.name}': ${(error as Error).message}`, {
        cause: error,
        toolName: this.name,
      });
    }
  }
}

/** Names the tool in an unknown-option message when its name is a valid one (a bad name is reported next). */
function toolSubject(name: unknown): { where?: string; toolName?: string } {
  return typeof name === 'string' && TOOL_NAME_PATTERN.test(name)
    ? { where: `new NativeTool({ name: '${name}' })`, toolName: name }
    : {};
}

function readToolCapabilities(toolName: string, capabilities: unknown): readonly string[] {
  const read = readCapabilityList(capabilities);
  if (!read.ok) throw new ToolDefinitionError(`Tool '${toolName}': ${read.problem}.`, { toolName });
  return read.capabilities;
}

function isJsonSchemaObject(value: unknown): value is JsonSchema {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    (value as { type?: unknown }).type === 'object' &&
    typeof (value as { properties?: unknown }).properties === 'object'
  );
}

function deepFreezeCopy(value: unknown): unknown {
  const copy = structuredClone(value);
  const freeze = (node: unknown): void => {
    if (typeof node !== 'object' || node === null || Object.isFrozen(node)) return;
    Object.freeze(node);
    for (const child of Object.values(node)) freeze(child);
  };
  freeze(copy);
  return copy;
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as PromiseLike<unknown>).then === 'function'
  );
}

/** A frozen copy of a DTO binding: validation reads it once per tool and caches what it found. */
function freezeBinding(binding: DtoBinding): DtoBinding {
  const derived = binding.derived;
  return Object.freeze({
    whole: binding.whole,
    properties: binding.properties ? Object.freeze({ ...binding.properties }) : undefined,
    derived: derived
      ? Object.freeze({
          whole: derived.whole,
          properties: derived.properties ? Object.freeze([...derived.properties]) : undefined,
        })
      : undefined,
  });
}
