import type { JsonSchema } from '../json-schema';
import { toValidationSchema } from '../schema/to-validation-schema';
import { compileAjvSchemaCheck, namesPrototypeMember } from './ajv-schema-check';
import type { AjvSchemaCheck } from './ajv-schema-check';
import { compileSchemaCheck } from './compile-schema-check';
import { isPlainSchema } from './is-plain-schema';
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
  /** The schema is plain (see {@link isPlainSchema}) and trusted: arguments Ajv accepts as they are need no walk. */
  readonly plain: boolean;
}

const trustedCache = new WeakMap<object, CompiledValidator>();
const untrustedCache = new WeakMap<object, CompiledValidator>();

/**
 * Returns the compiled validator of a schema, compiling it on first use (cached per schema object, so a
 * legacy field map is normalized once: see {@link toValidationSchema}).
 *
 * @throws ToolDefinitionError when the schema cannot be compiled, or is neither a JSON Schema nor a legacy
 * field map.
 */
export function getCompiledValidator(given: JsonSchema, untrusted = false): CompiledValidator {
  const cache = untrusted ? untrustedCache : trustedCache;
  let compiled = cache.get(given);
  if (!compiled) {
    const schema = toValidationSchema(given, { untrusted });
    const check = compileSchemaCheck(schema, { untrusted });
    let ajvCheck: AjvSchemaCheck | undefined;
    let copiesCheck: AjvSchemaCheck | undefined;
    const plain = !untrusted && isPlainSchema(schema);
    const ajv = () => (ajvCheck ??= compileAjvSchemaCheck(schema, untrusted));
    compiled = {
      check,
      ajv,
      ajvForCopies:
        plain && !namesPrototypeMember(schema)
          ? () => (copiesCheck ??= compileAjvSchemaCheck(schema, false, true))
          : ajv,
      plain,
    };
    cache.set(given, compiled);
  }
  return compiled;
}
