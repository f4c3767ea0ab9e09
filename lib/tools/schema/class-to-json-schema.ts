import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { ToolDefinitionError } from '../../errors/tool-definition-error';
import { COMPILE_WITH_METADATA, NO_METADATA_TOOLCHAINS } from '../metadata/decorator-metadata-fixes';
import { readPropertyDescription } from '../metadata/tool-metadata';
import type { JsonSchema } from '../json-schema';
import { getDtoModel, isDtoClass } from './dto-model';
import type { DtoPropertyModel } from './dto-model';
import { applyValidation } from './validation-to-schema';
import { designTypeToSchema } from './design-type-to-schema';

/** Options of {@link classToJsonSchema}. */
export interface ClassToJsonSchemaOptions {
  /** Title of the top-level schema. */
  title?: string;
}

const cache = new WeakMap<Function, JsonSchema>();

/**
 * Derives a closed JSON Schema from a class-validator DTO at run time: types, optional properties, string
 * and numeric enums, nested DTOs and arrays of DTOs, lengths, ranges, patterns, formats, descriptions and
 * defaults from property initializers. A recursive DTO is emitted once under `$defs` and referenced.
 *
 * @throws ToolDefinitionError when the class has no class-validator decorators, or a property has no type
 * (no decorator metadata, no type-bearing decorator, no `@PropertyType`).
 */
export function classToJsonSchema(dtoClass: Function, options: ClassToJsonSchemaOptions = {}): JsonSchema {
  if (!isDtoClass(dtoClass)) {
    throw new ToolDefinitionError(
      `${dtoClass?.name || 'The class'} has no class-validator decorators, so no schema can be derived from it. ` +
        'Decorate its properties (@IsString(), @IsInt(), @IsOptional()…) or pass an explicit schema.',
    );
  }
  let base = cache.get(dtoClass);
  if (!base) {
    const definitions: Record<string, JsonSchema> = {};
    base = buildObjectSchema(dtoClass, [dtoClass], definitions, new Set());
    if (Object.keys(definitions).length > 0) base = { ...base, $defs: definitions };
    deepFreeze(base);
    cache.set(dtoClass, base);
  }
  const copy = structuredClone(base) as JsonSchema;
  if (options.title) copy.title = options.title;
  return copy;
}

function buildObjectSchema(
  target: Function,
  stack: Function[],
  definitions: Record<string, JsonSchema>,
  recursive: Set<Function>,
): JsonSchema {
  const model = getDtoModel(target);
  const defaults = readInitializerDefaults(target);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const property of model.properties.values()) {
    const schema = buildPropertySchema(target, property, stack, definitions, recursive);
    const isOptional = property.validations.some((item) => item.type === 'conditionalValidation');
    const isDefined = property.validations.some((item) => item.name === 'isDefined');
    if (defaults && defaults[property.name] !== undefined && isJsonValue(defaults[property.name])) {
      schema.default = defaults[property.name];
    }
    properties[property.name] = schema;
    if (isDefined || (!isOptional && schema.default === undefined)) required.push(property.name);
  }
  return { type: 'object', properties, required, additionalProperties: false };
}

function buildPropertySchema(
  owner: Function,
  property: DtoPropertyModel,
  stack: Function[],
  definitions: Record<string, JsonSchema>,
  recursive: Set<Function>,
): JsonSchema {
  let schema: JsonSchema = {};
  let items: JsonSchema | undefined;
  const isArray =
    property.nestedIsArray || property.validations.some((item) => item.name === 'isArray' || item.each);
  if (property.nestedClass) {
    const nestedSchema = buildNestedSchema(property.nestedClass, stack, definitions, recursive);
    if (isArray) items = nestedSchema;
    else schema = nestedSchema;
  } else if (property.validations.some((item) => item.type === 'nestedValidation')) {
    throw new ToolDefinitionError(
      `${owner.name}.${property.name} is marked @ValidateNested() but its element class is unknown. ` +
        `Add @Type(() => ItemClass) from class-transformer to the property.`,
    );
  }
  const declaredName = typeof property.declaredType === 'string' ? property.declaredType : undefined;
  if (isArray) {
    schema = { type: 'array', items: items ?? {} };
  } else if (declaredName !== undefined) {
    schema =
      declaredName === 'any'
        ? {}
        : declaredName === 'array'
          ? { type: 'array', items: {} }
          : { type: declaredName };
  } else if (!property.nestedClass) {
    schema = designTypeToSchema(property.designType);
  }
  for (const validation of property.validations) {
    if (validation.each && isArray) {
      const target = (schema.items ?? {}) as JsonSchema;
      schema.items = applyValidation(
        target,
        validation as ValidationMetadata,
        `${owner.name}.${property.name}`,
      );
    } else {
      schema = applyValidation(schema, validation as ValidationMetadata, `${owner.name}.${property.name}`);
    }
  }
  if (
    property.designType === undefined &&
    property.declaredType === undefined &&
    !property.nestedClass &&
    !SCHEMA_TYPE_KEYWORDS.some((keyword) => keyword in schema)
  ) {
    throw new ToolDefinitionError(untypedPropertyMessage(owner, property));
  }
  const description = readPropertyDescription(owner, property.name);
  if (description !== undefined) schema.description = description;
  return schema;
}

/** Keywords that give a property schema its type, whichever decorator wrote them. */
const SCHEMA_TYPE_KEYWORDS = ['type', 'enum', 'const', '$ref'] as const;

function untypedPropertyMessage(owner: Function, property: DtoPropertyModel): string {
  const decorators = property.validations.map((item) => `@${decoratorName(item.name ?? item.type)}()`);
  const declared = decorators.length
    ? ` and its decorators (${[...new Set(decorators)].join(', ')}) say none`
    : '';
  return (
    `DTO property ${owner.name}.${property.name} has no type: the class was compiled without decorator metadata ` +
    `(${NO_METADATA_TOOLCHAINS})${declared}, so its schema would accept anything. Fix it one of three ways: ` +
    `1) say the type with a decorator, a class-validator one (@IsString(), @IsInt(), @IsNumber(), @IsBoolean(), ` +
    `@IsArray(), @ValidateNested() with @Type(() => SomeDto)) or @PropertyType('string') (@PropertyType(SomeDto), ` +
    `@PropertyType([SomeDto]); @PropertyType('any') where any JSON value is allowed); ${COMPILE_WITH_METADATA}`
  );
}

/** class-validator's metadata name (`isOptional`, `conditionalValidation`) as the decorator is written. */
function decoratorName(name: string): string {
  if (name === 'conditionalValidation') return 'IsOptional';
  if (name === 'whitelistValidation') return 'Allow';
  return name.charAt(0).toUpperCase() + name.slice(1);
}

function buildNestedSchema(
  nestedClass: Function,
  stack: Function[],
  definitions: Record<string, JsonSchema>,
  recursive: Set<Function>,
): JsonSchema {
  const name = nestedClass.name || 'Anonymous';
  if (stack.includes(nestedClass)) {
    recursive.add(nestedClass);
    return { $ref: stack[0] === nestedClass ? '#' : `#/$defs/${name}` };
  }
  if (!isDtoClass(nestedClass)) {
    throw new ToolDefinitionError(
      `${name} is used as a nested DTO but has no class-validator decorators; decorate its properties.`,
    );
  }
  const built = buildObjectSchema(nestedClass, [...stack, nestedClass], definitions, recursive);
  if (recursive.has(nestedClass) && stack[0] !== nestedClass) {
    definitions[name] = built;
    return { $ref: `#/$defs/${name}` };
  }
  return built;
}

function readInitializerDefaults(target: Function): Record<string, unknown> | undefined {
  try {
    return new (target as new () => Record<string, unknown>)();
  } catch {
    return undefined;
  }
}

function isJsonValue(value: unknown): boolean {
  if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) return true;
  if (Array.isArray(value)) return value.every(isJsonValue);
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.values(value as object).every(isJsonValue);
  }
  return false;
}

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const item of Object.values(value)) deepFreeze(item);
}
