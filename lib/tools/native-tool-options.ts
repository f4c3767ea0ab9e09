import { defineKnownOptions } from '../runtime/assert-known-options';
import type { CapabilityList } from '../capabilities/capability-name';
import type { TaskSupport } from './task-support';
import type { SchemaSource } from './schema/normalize-schema';
import type { ActionBuilder, ToolFunction } from './tool-types';
import type { DtoBinding } from './validation/validate-dto-args';
import type { ValidationLimits } from './validation/validation-limits';

/** Options of `NativeTool` (the plain-function twin of `@Tool`). */
export interface NativeToolOptions {
  /** 1–64 characters of `[A-Za-z0-9_-]`. */
  name: string;
  /** What the tool does and when to call it. */
  description: string;
  /**
   * JSON Schema, DTO class or legacy field map of the arguments; a closed empty object when absent, which
   * only a function without parameters may leave out (`() => …`).
   */
  inputSchema?: SchemaSource;
  /**
   * JSON Schema or DTO class of the result, normalized (title `<name>Output`); when absent or null the tool
   * declares no output schema (`outputSchema` null), never a placeholder that accepts anything.
   */
  outputSchema?: SchemaSource;
  /** Labels (null → `[]`). */
  tags?: string[] | null;
  /** The function to run: `func(validatedArgs, context)`, sync or async. */
  func: ToolFunction;
  /** Example argument objects (null → `[]`). */
  examples?: unknown[] | null;
  /**
   * Capabilities the policy checks: any iterable of names such as `'records.write'` (an array, a `Set`, a
   * generator; never a bare string), lower-cased; empties and duplicates dropped, first order kept. Anything
   * but `[a-z0-9_-]` words joined by dots is a definition error.
   */
  capabilities?: CapabilityList | null;
  /** Builds the RunAction the policy evaluates; must return a RunAction. */
  actionBuilder?: ActionBuilder | null;
  /** Check results against `outputSchema`, which it then needs (off by default: the schema is advertised). */
  validateOutput?: boolean;
  /** Free-form metadata (built-in ids, MCP annotations…), frozen. */
  metadata?: Record<string, unknown>;
  /** Keep the schemas exactly as given (remote definitions such as MCP): never closed or rewritten. */
  preserveSchema?: boolean;
  /** DTO classes rebuilt from validated arguments and checked by class-validator. */
  dto?: DtoBinding;
  /** Bounds on argument size and depth. */
  limits?: Partial<ValidationLimits>;
  /** Whether `func` reads its context (default: it declares a second parameter); skips building one per call. */
  usesContext?: boolean;
  /** Whether the tool may run as an MCP task (`execution.taskSupport`); default `forbidden`. */
  task?: TaskSupport;
}

/** The options {@link NativeToolOptions} has, and advice for the names people pass instead. */
export const NATIVE_TOOL_OPTIONS = defineKnownOptions<NativeToolOptions>(
  'new NativeTool()',
  {
    name: true,
    description: true,
    inputSchema: true,
    outputSchema: true,
    tags: true,
    func: true,
    examples: true,
    capabilities: true,
    actionBuilder: true,
    validateOutput: true,
    metadata: true,
    preserveSchema: true,
    dto: true,
    limits: true,
    usesContext: true,
    task: true,
  },
  {
    args: "it is the original's legacy field map; pass inputSchema (a JSON Schema, a DTO class or a legacy field map such as { a: 'int' }) instead",
    parameters: 'pass the JSON Schema of the arguments as inputSchema instead',
    execute: 'pass the function as func: (args, context) => … instead',
    handler: 'pass the function as func: (args, context) => … instead',
    function: 'pass the function as func: (args, context) => … instead',
  },
);
