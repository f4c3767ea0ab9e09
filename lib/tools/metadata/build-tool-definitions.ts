import { ToolDefinitionError } from '../../errors/tool-definition-error';
import type { ParamRecord, ToolMethodRecord } from './metadata-records';
import type { ParamDefinition, ToolDefinition } from './tool-definition';
import { COMPILE_WITH_METADATA, NO_METADATA_TOOLCHAINS } from './decorator-metadata-fixes';
import {
  readDesignParamTypes,
  readDesignReturnType,
  readOwnCatalogMethods,
  readOwnParams,
  readOwnToolMethods,
  readToolset,
} from './tool-metadata';

const cache = new WeakMap<Function, readonly ToolDefinition[]>();

/**
 * Turns the raw `@Tool`/`@Param`/`@Context`/`@Toolset` records of a class chain into frozen tool
 * definitions (the subclass wins per method). Cached per class.
 *
 * @throws ToolDefinitionError for a `@Param` on a method without `@Tool`, two tools with one name, an
 * undecorated parameter, or missing decorator metadata.
 */
export function buildToolDefinitions(classTarget: Function): readonly ToolDefinition[] {
  const cached = cache.get(classTarget);
  if (cached) return cached;
  const chain: Function[] = [];
  for (
    let current: unknown = classTarget;
    typeof current === 'function' && current !== Function.prototype;
    current = Object.getPrototypeOf(current)
  ) {
    chain.unshift(current as Function);
  }
  const winners = new Map<
    string,
    { owner: Function; record: ToolMethodRecord; params: readonly ParamRecord[] }
  >();
  // Methods of the catalog rooms (`@Resource`, `@ResourceTemplate`, `@Prompt`) have @Params of their own.
  const catalogMethods = new Set(chain.flatMap((owner) => [...readOwnCatalogMethods(owner).keys()]));
  for (const owner of chain) {
    const params = readOwnParams(owner);
    const tools = readOwnToolMethods(owner);
    for (const [methodName, paramRecords] of params) {
      if (!tools.has(methodName) && !winners.has(methodName) && catalogMethods.has(methodName)) continue;
      if (!tools.has(methodName) && !winners.has(methodName)) {
        throw new ToolDefinitionError(
          `${owner.name}.${methodName} has @Param/@Context parameters but no @Tool decorator. Add @Tool({ name, description }) to the method, or remove the parameter decorators.`,
        );
      }
      if (!tools.has(methodName)) {
        const previous = winners.get(methodName)!;
        winners.set(methodName, { ...previous, owner, params: paramRecords });
      }
    }
    for (const [methodName, record] of tools) {
      winners.set(methodName, { owner, record, params: params.get(methodName) ?? [] });
    }
  }
  const toolset = readToolset(classTarget);
  const definitions: ToolDefinition[] = [];
  const names = new Map<string, string>();
  for (const [methodName, { owner, record, params }] of winners) {
    const method = (classTarget.prototype as Record<string, unknown>)[methodName];
    if (typeof method !== 'function') {
      throw new ToolDefinitionError(`${classTarget.name}.${methodName} is marked @Tool but is not a method.`);
    }
    const name = `${toolset?.namePrefix ?? ''}${record.options.name}`;
    const clash = names.get(name);
    if (clash) {
      throw new ToolDefinitionError(
        `${classTarget.name} declares two tools named '${name}' (${clash} and ${methodName}); give each @Tool a unique name.`,
      );
    }
    names.set(name, methodName);
    const options = Object.freeze({
      ...record.options,
      name,
      tags: [...(toolset?.tags ?? []), ...(record.options.tags ?? [])],
      capabilities: [...(toolset?.capabilities ?? []), ...(record.options.capabilities ?? [])],
    });
    definitions.push(
      Object.freeze({
        declaringClass: owner,
        methodName,
        options,
        params: Object.freeze(buildParams(owner, methodName, params, (method as Function).length, name)),
        returnType: readDesignReturnType(owner.prototype, methodName),
      }),
    );
  }
  const frozen = Object.freeze(definitions);
  cache.set(classTarget, frozen);
  return frozen;
}

/**
 * Builds the ordered parameters of one decorated method from its `@Param`/`@Context` records (shared with
 * the catalog rooms, whose methods take parameters the same way).
 *
 * @throws ToolDefinitionError for an undecorated parameter, two decorators on one, duplicate names, missing
 *   decorator metadata, or an unnamed `@Param()` mixed with named ones.
 */
export function buildParamDefinitions(
  owner: Function,
  methodName: string,
  records: readonly ParamRecord[],
  arity: number,
  label: string,
): ParamDefinition[] {
  return buildParams(owner, methodName, records, arity, label);
}

function buildParams(
  owner: Function,
  methodName: string,
  records: readonly ParamRecord[],
  arity: number,
  toolName: string,
): ParamDefinition[] {
  const where = `${owner.name}.${methodName}`;
  const designTypes = readDesignParamTypes(owner.prototype, methodName);
  const byIndex = new Map<number, ParamRecord>();
  for (const record of records) {
    if (byIndex.has(record.index))
      throw new ToolDefinitionError(
        `Parameter #${record.index + 1} of ${where} has two parameter decorators; keep one.`,
      );
    byIndex.set(record.index, record);
  }
  const count = Math.max(arity, designTypes?.length ?? 0, ...records.map((record) => record.index + 1));
  const params: ParamDefinition[] = [];
  const seenNames = new Set<string>();
  for (let index = 0; index < count; index += 1) {
    const record = byIndex.get(index);
    if (!record) {
      throw new ToolDefinitionError(
        `Parameter #${index + 1} of ${where} has no decorator. Mark it @Param('name') (one argument), @Param() (a DTO that is the whole argument object) or @Context().`,
      );
    }
    if (record.kind === 'context') {
      params.push({ kind: 'context', index });
      continue;
    }
    const explicitType = record.options.type;
    const itemType = Array.isArray(explicitType) ? (explicitType[0] as Function) : undefined;
    const designType =
      typeof explicitType === 'function' ? explicitType : itemType ? Array : designTypes?.[index];
    const explicit = record.options.schema !== undefined || explicitType !== undefined;
    if (!designTypes && !explicit) {
      throw new ToolDefinitionError(missingMetadataMessage(toolName, where, index, record));
    }
    if (record.kind === 'named') {
      if (seenNames.has(record.name))
        throw new ToolDefinitionError(
          `${where} has two parameters named '${record.name}'; names must be unique.`,
        );
      seenNames.add(record.name);
      params.push({
        kind: 'named',
        index,
        name: record.name,
        options: record.options,
        designType,
        ...(itemType ? { itemType } : {}),
      });
    } else {
      params.push({ kind: 'whole', index, options: record.options, designType });
    }
  }
  const wholes = params.filter((param) => param.kind === 'whole');
  if (wholes.length > 1 || (wholes.length === 1 && params.some((param) => param.kind === 'named'))) {
    throw new ToolDefinitionError(
      `${where} mixes an unnamed @Param() (the whole argument object) with other @Param parameters; use either one unnamed DTO parameter or named ones.`,
    );
  }
  return params;
}

/**
 * Says which tool and parameter has no type, why (the class was compiled without decorator metadata), and
 * the three ways out.
 */
function missingMetadataMessage(
  toolName: string,
  where: string,
  index: number,
  record: Extract<ParamRecord, { kind: 'named' | 'whole' }>,
): string {
  const parameter =
    record.kind === 'named'
      ? `parameter '${record.name}' (#${index + 1})`
      : `the unnamed @Param() (#${index + 1})`;
  const example =
    record.kind === 'named'
      ? `@Param('${record.name}', { type: SomeDto }) (or { type: [SomeDto] } for an array, { type: 'string' } for a scalar)`
      : '@Param({ type: SomeDto })';
  return (
    `Tool '${toolName}' (${where}): ${parameter} has no type, because the class was compiled without decorator metadata ` +
    `(${NO_METADATA_TOOLCHAINS}). Fix it one of three ways: ` +
    `1) give the type explicitly, ${example}; ${COMPILE_WITH_METADATA}`
  );
}
