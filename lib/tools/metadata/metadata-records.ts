import type { CapabilityList } from '../../capabilities/capability-name';
import type { TaskSupport } from '../task-support';
import type { JsonSchema } from '../json-schema';
import type { ActionBuilder } from '../tool-types';

/** Options of `@Tool` (and, per method, of generated tool classes). */
export interface ToolOptions {
  /** The tool's name: 1–64 characters of `[A-Za-z0-9_-]`. */
  name: string;
  /** What the tool does and when to call it, for the model. */
  description: string;
  /** Explicit input schema (JSON Schema or a DTO class); wins over everything inferred. */
  inputSchema?: JsonSchema | Function;
  /** Explicit output schema (JSON Schema or a DTO class); wins over the return type and the manifest. */
  outputSchema?: JsonSchema | Function;
  /** Labels, merged after the `@Toolset` tags. */
  tags?: string[];
  /** Example argument objects. */
  examples?: unknown[];
  /**
   * Capabilities the tool needs, merged after the `@Toolset` capabilities: any iterable of names
   * (`['records.write']`, a `Set`), never a bare string.
   */
  capabilities?: CapabilityList;
  /** Builds the RunAction that the policy evaluates (previews, metadata). */
  actionBuilder?: ActionBuilder;
  /** Free-form metadata kept on the built tool. */
  metadata?: Record<string, unknown>;
  /** Keep `inputSchema` exactly as given (remote definitions): never closed or rewritten. */
  preserveSchema?: boolean;
  /** Validate results against the output schema. */
  validateOutput?: boolean;
  /** Whether the tool may run as an MCP task: `forbidden` (default), `optional` or `required`. */
  task?: TaskSupport;
}

/** What `@Tool` records for one method. */
export interface ToolMethodRecord {
  readonly methodName: string;
  readonly options: Readonly<ToolOptions>;
}

/**
 * What a catalog decorator (`@Resource`, `@ResourceTemplate`, `@Prompt`) records for one method; its options
 * are the decorator's own, read by its room (`lib/resources/`, `lib/prompts/`).
 */
export interface CatalogMethodRecord {
  readonly methodName: string;
  readonly kind: 'resource' | 'resourceTemplate' | 'prompt';
  readonly options: Readonly<Record<string, unknown>>;
}

/** A JSON Schema type name `@Param` takes as `type`. */
export type ParamTypeName = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';

/** A class `@Param` takes as `type`: a DTO class, or `String`, `Number`, `Boolean`, `Date`. */
export type ParamTypeClass = abstract new (...args: never[]) => unknown;

/**
 * The explicit type of a `@Param`: a schema type name (`'integer'`), a class (`BookingRequest`), or an array
 * of a class (`[BookingRequest]`). A class or `[Class]` replaces decorator metadata where the compiler emits
 * none (esbuild, tsx).
 */
export type ParamType = ParamTypeName | ParamTypeClass | readonly [ParamTypeClass];

/**
 * The declared type of a DTO property (`@PropertyType`): what `@Param` takes as `type`, or `'any'` for a
 * property that accepts any JSON value (the schema `{}`), which must be said explicitly.
 */
export type PropertyTypeDeclaration = ParamType | 'any';

/** Options of `@Param`. */
export interface ParamOptions {
  /**
   * The parameter's type: a schema type override (`'integer'` for a `number` parameter), or the class
   * (`{ type: BookingRequest }`, `{ type: [BookingRequest] }` for an array) when decorator metadata is not
   * emitted.
   */
  type?: ParamType;
  /** Full schema override of this parameter. */
  schema?: JsonSchema;
  /** The parameter may be left out. */
  optional?: boolean;
  /** Shown to the model. */
  description?: string;
  /** Used when the argument is absent (implies optional). */
  default?: unknown;
}

/** What `@Param`/`@Context` record for one parameter. */
export type ParamRecord =
  | {
      readonly kind: 'named';
      readonly index: number;
      readonly name: string;
      readonly options: Readonly<ParamOptions>;
    }
  | { readonly kind: 'whole'; readonly index: number; readonly options: Readonly<ParamOptions> }
  | { readonly kind: 'context'; readonly index: number };

/** Options of `@Toolset`: defaults for every tool of the class. */
export interface ToolsetRecord {
  /** Tags every tool of the class gets first. */
  readonly tags?: readonly string[];
  /** Capabilities every tool of the class needs. */
  readonly capabilities?: readonly string[];
  /** A prefix for every tool name of the class (`crm_` + `lookup`). */
  readonly namePrefix?: string;
}
