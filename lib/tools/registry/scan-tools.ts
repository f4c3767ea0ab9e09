import { ToolDefinitionError } from '../../errors/tool-definition-error';
import type { JsonSchema } from '../json-schema';
import { buildToolDefinitions } from '../metadata/build-tool-definitions';
import type { ParamDefinition, ToolDefinition } from '../metadata/tool-definition';
import { embedPropertySchema } from '../schema/embed-property-schema';
import type { SchemaManifest, SchemaManifestEntry } from '../manifest/schema-manifest';
import { NativeTool } from '../native-tool';
import { classToJsonSchema } from '../schema/class-to-json-schema';
import { designTypeToSchema } from '../schema/design-type-to-schema';
import { isDtoClass } from '../schema/dto-model';
import { isPermissiveSchema } from '../schema/is-permissive-schema';
import { normalizeSchema } from '../schema/normalize-schema';
import type { DtoBinding } from '../validation/validate-dto-args';

/** Options of {@link scanTools}. */
export interface ScanToolsOptions {
  /** Schemas from `protolink schemas` for what run-time metadata cannot see. */
  manifest?: SchemaManifest;
}

/**
 * Reads the `@Tool` metadata of an instance's class chain (the subclass wins) and returns NativeTools
 * bound to the instance. Schema precedence: explicit option > DTO metadata > manifest > design type; an
 * output schema that none of them gives is not declared (`outputSchema` null), never a placeholder.
 *
 * @throws ToolDefinitionError when a tool is declared wrongly.
 */
export function scanTools(instance: object, options: ScanToolsOptions = {}): NativeTool[] {
  if (typeof instance !== 'object' || instance === null) {
    throw new ToolDefinitionError(
      `scanTools() needs a class instance, got ${instance === null ? 'null' : typeof instance}.`,
    );
  }
  const classTarget = instance.constructor;
  return buildToolDefinitions(classTarget).map((definition) =>
    buildNativeTool(instance, classTarget, definition, options.manifest),
  );
}

/** Builds the NativeTool of one definition without an instance (for schema inference only). */
export function scanToolDefinition(
  classTarget: Function,
  definition: ToolDefinition,
  manifest?: SchemaManifest,
): NativeTool {
  return buildNativeTool(Object.create(classTarget.prototype) as object, classTarget, definition, manifest);
}

/**
 * Builds the NativeTool of one method definition bound to an instance: the one place where `@Param`s
 * become a validated argument object (the catalog rooms build their resources and prompts through it).
 *
 * @throws ToolDefinitionError when the definition's schemas or name are wrong.
 */
export function bindToolDefinition(
  instance: object,
  classTarget: Function,
  definition: ToolDefinition,
): NativeTool {
  return buildNativeTool(instance, classTarget, definition);
}

function buildNativeTool(
  instance: object,
  classTarget: Function,
  definition: ToolDefinition,
  manifest?: SchemaManifest,
): NativeTool {
  const entry =
    manifest?.tools[`${definition.declaringClass.name}.${definition.methodName}`] ??
    manifest?.tools[`${classTarget.name}.${definition.methodName}`];
  const { options, params } = definition;
  const dto: DtoBinding = {};
  const inputSchema = options.inputSchema ?? buildInputSchema(definition, entry, dto);
  if (options.inputSchema !== undefined) bindExplicitDtos(definition, options.inputSchema, dto);
  const method = (instance as Record<string, Function>)[definition.methodName];
  const func = callerOf(instance, method, params);
  return new NativeTool({
    name: options.name,
    description: options.description,
    inputSchema,
    outputSchema: options.outputSchema ?? buildOutputSchema(definition, entry),
    tags: options.tags,
    examples: options.examples,
    capabilities: options.capabilities,
    actionBuilder: options.actionBuilder,
    metadata: {
      ...options.metadata,
      source: { className: classTarget.name, methodName: definition.methodName },
    },
    preserveSchema: options.preserveSchema,
    validateOutput: options.validateOutput,
    task: options.task,
    dto: dto.whole || dto.properties ? dto : undefined,
    usesContext: params.some((param) => param.kind === 'context'),
    func: func as never,
  });
}

function buildInputSchema(
  definition: ToolDefinition,
  entry: SchemaManifestEntry | undefined,
  dto: DtoBinding,
): JsonSchema {
  const whole = definition.params.find((param) => param.kind === 'whole');
  if (whole && whole.kind === 'whole') {
    if (whole.options.schema) return whole.options.schema;
    if (isDtoClass(whole.designType)) {
      dto.whole = whole.designType as Function;
      dto.derived = { whole: true };
      return classToJsonSchema(whole.designType as Function);
    }
    if (entry?.inputSchema) return entry.inputSchema;
    return { type: 'object', additionalProperties: true };
  }
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const definitions: Record<string, JsonSchema> = {};
  const dtoProperties: Record<string, Function> = {};
  const derived: string[] = [];
  for (const param of definition.params) {
    if (param.kind !== 'named') continue;
    const schema = buildParamSchema(param, entry, definition, definitions);
    if (isDtoClass(param.designType) && !param.options.schema)
      dtoProperties[param.name] = param.designType as Function;
    if (isDtoClass(param.itemType) && !param.options.schema) dtoProperties[param.name] = param.itemType!;
    // buildParamSchema derived this DTO's schema (no explicit schema or type): it enforces the DTO's constraints.
    if (
      Object.hasOwn(dtoProperties, param.name) &&
      typeof param.options.type !== 'string' &&
      (param.itemType ? isDtoClass(param.itemType) : isDtoClass(param.designType))
    )
      derived.push(param.name);
    if (param.options.description !== undefined) schema.description = param.options.description;
    if (param.options.default !== undefined) schema.default = structuredClone(param.options.default);
    // A DTO's own recursion (`$ref: '#'`) must keep pointing at the DTO, not at the argument object.
    const definitionName = isDtoClass(param.designType) ? (param.designType as Function).name : param.name;
    properties[param.name] = embedPropertySchema(schema, definitionName, definitions);
    if (!param.options.optional && param.options.default === undefined) required.push(param.name);
  }
  if (Object.keys(dtoProperties).length > 0) dto.properties = dtoProperties;
  if (derived.length > 0) dto.derived = { properties: derived };
  const root: JsonSchema = { type: 'object', properties, required, additionalProperties: false };
  if (Object.keys(definitions).length > 0) root.$defs = definitions;
  return root;
}

/**
 * With an explicit `inputSchema` the schema is not derived, but the method still receives DTO instances
 * (and class-validator still runs): the explicit DTO class, or the DTO types of the parameters.
 */
function bindExplicitDtos(
  definition: ToolDefinition,
  explicit: JsonSchema | Function,
  dto: DtoBinding,
): void {
  const dtoProperties: Record<string, Function> = {};
  for (const param of definition.params) {
    if (param.kind === 'whole') {
      if (typeof explicit === 'function' && isDtoClass(explicit)) dto.whole = explicit;
      else if (!param.options.schema && isDtoClass(param.designType))
        dto.whole = param.designType as Function;
    } else if (param.kind === 'named' && !param.options.schema && isDtoClass(param.designType)) {
      dtoProperties[param.name] = param.designType as Function;
    } else if (param.kind === 'named' && !param.options.schema && isDtoClass(param.itemType)) {
      dtoProperties[param.name] = param.itemType!;
    }
  }
  if (Object.keys(dtoProperties).length > 0) dto.properties = dtoProperties;
}

function buildParamSchema(
  param: Extract<ParamDefinition, { kind: 'named' }>,
  entry: SchemaManifestEntry | undefined,
  definition: ToolDefinition,
  definitions: Record<string, JsonSchema>,
): JsonSchema {
  if (param.options.schema) return normalizeSchema(param.options.schema);
  if (typeof param.options.type === 'string') {
    return param.options.type === 'array' ? { type: 'array', items: {} } : { type: param.options.type };
  }
  if (param.itemType) {
    // `{ type: [Dto] }`: the DTO's schema moves under the root `$defs` so its references keep resolving.
    const items = isDtoClass(param.itemType)
      ? embedPropertySchema(classToJsonSchema(param.itemType), param.itemType.name, definitions)
      : designTypeToSchema(param.itemType);
    return { type: 'array', items };
  }
  if (isDtoClass(param.designType)) return classToJsonSchema(param.designType as Function);
  const fromManifest = entry?.parameters?.[param.name];
  if (fromManifest) return structuredClone(fromManifest);
  if (param.designType && !isKnownDesignType(param.designType) && param.designType !== Object) {
    throw new ToolDefinitionError(
      `${definition.declaringClass.name}.${definition.methodName}: parameter '${param.name}' is typed by ${param.designType.name}, which has no class-validator decorators. Decorate its properties, or give @Param an explicit { schema }.`,
    );
  }
  return designTypeToSchema(param.designType);
}

/**
 * The output schema a method's types give, or undefined when nothing says what it returns. An async method's
 * design type is `Promise` and an object type's is `Object`, neither of which says anything: its `T` comes
 * from the manifest, never from a placeholder that accepts anything.
 */
function buildOutputSchema(
  definition: ToolDefinition,
  entry: SchemaManifestEntry | undefined,
): JsonSchema | undefined {
  const { returnType } = definition;
  if (isDtoClass(returnType)) return classToJsonSchema(returnType as Function);
  // `unknown` and `any` compile to `{}`: a schema that accepts anything is not declared.
  if (entry?.outputSchema && !isPermissiveSchema(entry.outputSchema)) return entry.outputSchema;
  // `Array` (items unknown) and `Object` say too little to declare.
  if (returnType && isKnownDesignType(returnType) && returnType !== Array) {
    return designTypeToSchema(returnType);
  }
  return undefined;
}

function isKnownDesignType(designType: Function): boolean {
  return (
    designType === String ||
    designType === Number ||
    designType === Boolean ||
    designType === Array ||
    designType === Date
  );
}

/**
 * The function a decorated method's NativeTool runs: maps the validated arguments (and the context) onto the
 * method's parameters. The common one-parameter shapes get a caller of their own (no argument array).
 */
function callerOf(
  instance: object,
  method: Function,
  params: readonly ParamDefinition[],
): (args: Record<string, unknown>, context: unknown) => unknown {
  const arity = params.length;
  if (arity === 0) return () => method.call(instance);
  const only = params[0];
  if (arity === 1 && only.index === 0) {
    if (only.kind === 'named') {
      const name = only.name;
      return (args) => method.call(instance, args[name]);
    }
    if (only.kind === 'whole') return (args) => method.call(instance, args);
    return (_args, context) => method.call(instance, context);
  }
  return (args, context) => {
    const callArgs = new Array<unknown>(arity);
    for (let position = 0; position < arity; position += 1) {
      const param = params[position];
      if (param.kind === 'context') callArgs[param.index] = context;
      else if (param.kind === 'whole') callArgs[param.index] = args;
      else callArgs[param.index] = args[param.name];
    }
    return method.apply(instance, callArgs);
  };
}
