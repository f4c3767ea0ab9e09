import type { JsonSchema } from '../json-schema';
import { toValidationSchema } from '../schema/to-validation-schema';
import { compileAjvSchemaCheck, namesPrototypeMember } from './ajv-schema-check';
import type { AjvSchemaCheck } from './ajv-schema-check';
import { compileSchemaCheck } from './compile-schema-check';
import type { CompiledValidator } from './compiled-validator';
import { isPlainSchema } from './is-plain-schema';

/**
 * Compiles a schema into a {@link CompiledValidator}: the coercing walker now, Ajv on first use. Callers go
 * through `getCompiledValidator`, which caches the result per schema object.
 *
 * @throws ToolDefinitionError when the schema cannot be compiled, or is neither a JSON Schema nor a legacy
 * field map.
 */
export function buildCompiledValidator(given: JsonSchema, untrusted: boolean): CompiledValidator {
  const schema = toValidationSchema(given, { untrusted });
  const check = compileSchemaCheck(schema, { untrusted });
  let ajvCheck: AjvSchemaCheck | undefined;
  let copiesCheck: AjvSchemaCheck | undefined;
  const plain = !untrusted && isPlainSchema(schema);
  const ajv = () => (ajvCheck ??= compileAjvSchemaCheck(schema, untrusted));
  return {
    check,
    ajv,
    ajvForCopies:
      plain && !namesPrototypeMember(schema)
        ? () => (copiesCheck ??= compileAjvSchemaCheck(schema, false, true))
        : ajv,
    plain,
  };
}
