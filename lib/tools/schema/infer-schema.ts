import { ToolDefinitionError } from '../../errors/tool-definition-error';
import type { JsonSchema } from '../json-schema';
import { buildToolDefinitions } from '../metadata/build-tool-definitions';
import { scanToolDefinition } from '../registry/scan-tools';
import { classToJsonSchema } from './class-to-json-schema';
import { isDtoClass } from './dto-model';

/** A DTO class, or a `[Class, 'method']` pair naming a `@Tool` method. */
export type SchemaTarget = Function | readonly [Function, string];

/** Options of {@link inferInputSchema} and {@link inferOutputSchema}. */
export interface InferSchemaOptions {
  /** Title written on the schema. */
  title: string;
}

/**
 * Infers the input schema of a `@Tool` method (`[Class, 'method']`) or a DTO class from decorator metadata.
 *
 * @throws ToolDefinitionError when the target has no tool or DTO metadata.
 */
export function inferInputSchema(target: SchemaTarget, options: InferSchemaOptions): JsonSchema {
  if (typeof target === 'function') return classToJsonSchema(requireDto(target), { title: options.title });
  const schema = structuredClone(scanToolDefinition(...findDefinition(target)).inputSchema);
  return { ...schema, title: options.title };
}

/**
 * Infers the output schema of a `@Tool` method from its return type (a DTO, `number`, `string`…), or of a
 * DTO class; permissive `{}` when nothing is known.
 *
 * @throws ToolDefinitionError when the target has no tool or DTO metadata.
 */
export function inferOutputSchema(target: SchemaTarget, options: InferSchemaOptions): JsonSchema {
  if (typeof target === 'function') return classToJsonSchema(requireDto(target), { title: options.title });
  const schema = structuredClone(scanToolDefinition(...findDefinition(target)).outputSchema);
  return { ...schema, title: options.title };
}

function requireDto(target: Function): Function {
  if (!isDtoClass(target)) {
    throw new ToolDefinitionError(
      `${target.name} is not a DTO class; pass a class-validator DTO or [Class, 'method'].`,
    );
  }
  return target;
}

function findDefinition(target: readonly [Function, string]): Parameters<typeof scanToolDefinition> {
  const [classTarget, methodName] = target;
  const definition = buildToolDefinitions(classTarget).find((item) => item.methodName === methodName);
  if (!definition) {
    throw new ToolDefinitionError(
      `${classTarget.name}.${methodName} is not a @Tool method; decorate it with @Tool({ name, description }).`,
    );
  }
  return [classTarget, definition];
}
