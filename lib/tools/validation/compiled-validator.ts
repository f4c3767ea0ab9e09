import type { JsonSchema } from '../json-schema';
import { compileAjvSchemaCheck } from './ajv-schema-check';
import type { AjvSchemaCheck } from './ajv-schema-check';
import { compileSchemaCheck } from './compile-schema-check';
import { isPlainSchema } from './is-plain-schema';
import type { SchemaCheck } from './schema-check';

/** A schema compiled once: the coercing walker, and Ajv (compiled on first use) as the final check. */
export interface CompiledValidator {
  readonly check: SchemaCheck;
  readonly ajv: () => AjvSchemaCheck;
  /** The schema is plain (see {@link isPlainSchema}) and trusted: arguments Ajv accepts as they are need no walk. */
  readonly plain: boolean;
}

const trustedCache = new WeakMap<object, CompiledValidator>();
const untrustedCache = new WeakMap<object, CompiledValidator>();

/**
 * Returns the compiled validator of a schema, compiling it on first use (cached per schema object).
 *
 * @throws ToolDefinitionError when the schema cannot be compiled.
 */
export function getCompiledValidator(schema: JsonSchema, untrusted = false): CompiledValidator {
  const cache = untrusted ? untrustedCache : trustedCache;
  let compiled = cache.get(schema);
  if (!compiled) {
    const check = compileSchemaCheck(schema, { untrusted });
    let ajvCheck: AjvSchemaCheck | undefined;
    compiled = {
      check,
      ajv: () => (ajvCheck ??= compileAjvSchemaCheck(schema, untrusted)),
      plain: !untrusted && isPlainSchema(schema),
    };
    cache.set(schema, compiled);
  }
  return compiled;
}
