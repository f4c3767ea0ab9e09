import { ToolDefinitionError } from '../../errors/tool-definition-error';
import type { JsonSchema } from '../json-schema';
import type { SchemaManifest } from '../manifest/schema-manifest';
import { buildToolDefinitions } from '../metadata/build-tool-definitions';
import type { ToolDefinition } from '../metadata/tool-definition';
import { scanToolDefinition } from '../registry/scan-tools';
import { classToJsonSchema } from './class-to-json-schema';
import { isDtoClass } from './dto-model';

/** A DTO class, or a `[Class, 'method']` pair naming a `@Tool` method. */
export type SchemaTarget = Function | readonly [Function, string];

/** Options of {@link inferInputSchema} and {@link inferOutputSchema}. */
export interface InferSchemaOptions {
  /** Title written on the schema. */
  title: string;
  /**
   * Schemas from `protolink schemas` (`loadSchemaManifest`), for what decorator metadata cannot see: the `T`
   * of a method returning `Promise<T>`, interface-typed parameters.
   */
  manifest?: SchemaManifest;
}

/**
 * Infers the input schema of a `@Tool` method (`[Class, 'method']`) or a DTO class from decorator metadata.
 *
 * @throws ToolDefinitionError when the target has no tool or DTO metadata.
 */
export function inferInputSchema(target: SchemaTarget, options: InferSchemaOptions): JsonSchema {
  if (typeof target === 'function') return classToJsonSchema(requireDto(target), { title: options.title });
  const schema = structuredClone(scanToolDefinition(...findDefinition(target), options.manifest).inputSchema);
  return { ...schema, title: options.title };
}

/**
 * Infers the output schema of a `@Tool` method (its explicit `outputSchema`, else its return type: a DTO,
 * `number`, `string`…, or the manifest's schema of a `Promise<T>` or object type), or of a DTO class. Returns
 * null when nothing says what the method returns, never a schema that accepts anything.
 *
 * @throws ToolDefinitionError when the target has no tool or DTO metadata.
 */
export function inferOutputSchema(target: SchemaTarget, options: InferSchemaOptions): JsonSchema | null {
  if (typeof target === 'function') return classToJsonSchema(requireDto(target), { title: options.title });
  const schema = scanToolDefinition(...findDefinition(target), options.manifest).outputSchema;
  return schema === null ? null : { ...structuredClone(schema), title: options.title };
}

function requireDto(target: Function): Function {
  if (!isDtoClass(target)) {
    throw new ToolDefinitionError(
      `${target.name} is not a DTO class; pass a class-validator DTO or [Class, 'method'].`,
    );
  }
  return target;
}

function findDefinition(target: readonly [Function, string]): [Function, ToolDefinition] {
  const [classTarget, methodName] = target;
  const definition = buildToolDefinitions(classTarget).find((item) => item.methodName === methodName);
  if (!definition) {
    throw new ToolDefinitionError(
      `${classTarget.name}.${methodName} is not a @Tool method; decorate it with @Tool({ name, description }).`,
    );
  }
  return [classTarget, definition];
}
