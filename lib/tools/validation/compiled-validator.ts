import { lazyRequire } from '../../runtime/lazy-require';
import type { JsonSchema } from '../json-schema';
import type { AjvSchemaCheck } from './ajv-schema-check';
import type { SchemaCheck } from './schema-check';

/** A schema compiled once: the coercing walker, and Ajv (compiled on first use) as the final check. */
export interface CompiledValidator {
  readonly check: SchemaCheck;
  readonly ajv: () => AjvSchemaCheck;
  /**
   * Ajv for copies made by `tryCopyJson` only (see `compileAjvSchemaCheck`'s `forCopies`): without
   * `ownProperties` when the schema is plain and names no member of `Object.prototype`, else {@link ajv}.
   */
  readonly ajvForCopies: () => AjvSchemaCheck;
  /** The schema is plain (see `isPlainSchema`) and trusted: arguments Ajv accepts as they are need no walk. */
  readonly plain: boolean;
}

// The schema compiler (the walker's builders, formats, the linear-time pattern engine, Ajv) loads with the
// first schema compiled, not with `import 'protolink'`; a cached validator never comes back here.
const loadBuilder = lazyRequire((): typeof import('./build-compiled-validator') =>
  require('./build-compiled-validator'),
);

const trustedCache = new WeakMap<object, CompiledValidator>();
const untrustedCache = new WeakMap<object, CompiledValidator>();

/**
 * Returns the compiled validator of a schema, compiling it on first use (cached per schema object, so a
 * legacy field map is normalized once: see `toValidationSchema`).
 *
 * @throws ToolDefinitionError when the schema cannot be compiled, or is neither a JSON Schema nor a legacy
 * field map.
 */
export function getCompiledValidator(given: JsonSchema, untrusted = false): CompiledValidator {
  const cache = untrusted ? untrustedCache : trustedCache;
  let compiled = cache.get(given);
  if (!compiled) {
    compiled = loadBuilder().buildCompiledValidator(given, untrusted);
    cache.set(given, compiled);
  }
  return compiled;
}
