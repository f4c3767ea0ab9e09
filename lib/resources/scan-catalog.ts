import { ToolDefinitionError } from '../errors/tool-definition-error';
import { RunAction } from '../runtime/run-action';
import { compileMcpUriTemplate } from './match-mcp-uri-template';
import { buildParamDefinitions } from '../tools/metadata/build-tool-definitions';
import type { CatalogMethodRecord } from '../tools/metadata/metadata-records';
import type { ToolDefinition } from '../tools/metadata/tool-definition';
import { readOwnCatalogMethods, readOwnParams } from '../tools/metadata/tool-metadata';
import type { NativeTool } from '../tools/native-tool';
import { bindToolDefinition } from '../tools/registry/scan-tools';
import type { CatalogEntry, PromptArgumentEntry } from './catalog-entry';
import type { CompletionProviders } from './completion-provider';

/**
 * Reads the `@Resource`, `@ResourceTemplate` and `@Prompt` methods of an instance's class chain (the subclass
 * wins per method) and returns catalog entries bound to the instance. Their `@Param`s go through the same
 * builder as tools' (schema, DTOs, coercion).
 *
 * @throws ToolDefinitionError when a method is declared wrongly: a `@Resource` with arguments, template
 *   variables and `@Param`s that differ, or any `@Param` problem a tool would have.
 */
export function scanCatalog(instance: object): CatalogEntry[] {
  const classTarget = instance.constructor;
  const chain: Function[] = [];
  for (
    let current: unknown = classTarget;
    typeof current === 'function' && current !== Function.prototype;
    current = Object.getPrototypeOf(current)
  )
    chain.unshift(current as Function);
  const winners = new Map<string, { owner: Function; record: CatalogMethodRecord }>();
  for (const owner of chain)
    for (const [methodName, record] of readOwnCatalogMethods(owner))
      winners.set(methodName, { owner, record });
  return [...winners.values()].map(({ owner, record }) =>
    buildEntry(instance, classTarget, chain, owner, record),
  );
}

function buildEntry(
  instance: object,
  classTarget: Function,
  chain: readonly Function[],
  owner: Function,
  record: CatalogMethodRecord,
): CatalogEntry {
  const options = record.options as Record<string, unknown> & { capabilities?: readonly string[] };
  const { methodName } = record;
  const name = (options.name as string | undefined) ?? methodName;
  const where = `${classTarget.name}.${methodName}`;
  const method = (classTarget.prototype as Record<string, unknown>)[methodName];
  if (typeof method !== 'function')
    throw new ToolDefinitionError(`${where} is marked as a catalog entry but is not a method.`);
  // The nearest class that decorated the method's parameters (the subclass wins, as for tools).
  const paramOwner =
    [...chain].reverse().find((candidate) => readOwnParams(candidate).has(methodName)) ?? owner;
  const params = buildParamDefinitions(
    paramOwner,
    methodName,
    readOwnParams(paramOwner).get(methodName) ?? [],
    (method as Function).length,
    name,
  );
  const kind = record.kind;
  const target =
    kind === 'resource'
      ? (options.uri as string)
      : kind === 'resourceTemplate'
        ? (options.uriTemplate as string)
        : name;
  const definition: ToolDefinition = Object.freeze({
    declaringClass: owner,
    methodName,
    options: Object.freeze({
      name: toInternalName(kind, name),
      description: (options.description as string | undefined) ?? `${kind} ${target}`,
      capabilities: options.capabilities ?? [],
      actionBuilder: (args: Record<string, unknown>) =>
        new RunAction({
          kind: kind === 'prompt' ? 'prompt.get' : 'resource.read',
          name: target,
          description: (options.description as string | undefined) ?? null,
          payload: { arguments: args },
          capabilities: options.capabilities ?? [],
        }),
    }),
    params: Object.freeze(params),
    returnType: undefined,
  });
  const tool = bindToolDefinition(instance, classTarget, definition);
  const base = {
    name,
    title: options.title as string | undefined,
    description: options.description as string | undefined,
    capabilities: tool.capabilities,
    tool,
    complete: (options.complete as CompletionProviders | undefined) ?? Object.freeze({}),
  };
  if (kind === 'resource') {
    if (params.some((param) => param.kind !== 'context'))
      throw new ToolDefinitionError(
        `${where} is a @Resource with arguments; a fixed URI has none. Use @ResourceTemplate({ uriTemplate }) with a variable per @Param, or keep only @Context().`,
      );
    return Object.freeze({
      ...base,
      kind,
      uri: options.uri as string,
      mimeType: options.mimeType as string | undefined,
    });
  }
  if (kind === 'resourceTemplate') {
    const matcher = compileMcpUriTemplate(options.uriTemplate as string);
    assertVariablesBound(where, matcher.variables, tool);
    return Object.freeze({
      ...base,
      kind,
      uriTemplate: options.uriTemplate as string,
      mimeType: options.mimeType as string | undefined,
      matcher,
    });
  }
  assertCompletable(where, base.complete, tool);
  return Object.freeze({ ...base, kind, arguments: Object.freeze(toPromptArguments(tool)) });
}

/** A valid tool name for the entry's NativeTool (it appears in events and validation messages). */
function toInternalName(kind: CatalogMethodRecord['kind'], name: string): string {
  const prefix = kind === 'prompt' ? 'prompt_' : 'resource_';
  return `${prefix}${name.replace(/[^A-Za-z0-9_-]/g, '_')}`.slice(0, 64);
}

function propertiesOf(tool: NativeTool): {
  properties: Record<string, { description?: string }>;
  required: string[];
} {
  const schema = tool.inputSchema as {
    properties?: Record<string, { description?: string }>;
    required?: string[];
  };
  return { properties: schema.properties ?? {}, required: schema.required ?? [] };
}

function assertVariablesBound(where: string, variables: readonly string[], tool: NativeTool): void {
  const { properties } = propertiesOf(tool);
  const names = Object.keys(properties);
  const unbound = variables.filter((variable) => !names.includes(variable));
  const extra = names.filter((name) => !variables.includes(name));
  if (unbound.length > 0 || extra.length > 0)
    throw new ToolDefinitionError(
      `${where}: the template's variables (${variables.join(', ')}) and the method's @Params (${names.join(', ') || 'none'}) must be the same names${unbound.length ? `; add @Param('${unbound[0]}')` : ''}${extra.length ? `; '${extra[0]}' is not in the template` : ''}.`,
    );
}

function assertCompletable(where: string, complete: CompletionProviders, tool: NativeTool): void {
  const names = Object.keys(propertiesOf(tool).properties);
  for (const name of Object.keys(complete))
    if (!names.includes(name))
      throw new ToolDefinitionError(
        `${where}: complete.${name} names no argument of the prompt; its arguments are ${names.join(', ') || 'none'}.`,
      );
}

function toPromptArguments(tool: NativeTool): PromptArgumentEntry[] {
  const { properties, required } = propertiesOf(tool);
  return Object.entries(properties).map(([name, schema]) => ({
    name,
    description: typeof schema.description === 'string' ? schema.description : undefined,
    required: required.includes(name),
  }));
}
