import { Scope } from '@nestjs/common';
import type { InstanceWrapper } from '@nestjs/core/injector/instance-wrapper';
import { REQUEST } from '@nestjs/core';
import type { MetadataScanner } from '@nestjs/core';
import { ProtolinkError } from '../errors/protolink-error';
import { ToolDefinitionError } from '../errors/tool-definition-error';
import { buildToolDefinitions } from '../tools/metadata/build-tool-definitions';
import type { NativeTool } from '../tools/native-tool';
import { scanTools } from '../tools/registry/scan-tools';
import { describeNestProvider, findRequestScopedPath } from './find-request-scoped-path';

/** A tool found on a Nest provider or controller, with where it came from. */
export interface DiscoveredNestTool {
  /** The tool, bound to the DI-constructed instance. */
  tool: NativeTool;
  /** The provider's or controller's class name. */
  provider: string;
  /** The decorated method. */
  methodName: string;
}

/**
 * Finds the `@Tool` methods of Nest providers and controllers and builds their tools on the DI-constructed
 * instances, so injected dependencies work inside the tools. Class, `useFactory`, `useValue` and
 * `useExisting` providers are all found; an instance reachable under several tokens is registered once.
 *
 * @throws ToolDefinitionError naming the provider and method for a `@Tool` on a request-scoped or transient
 * provider, a tool declared wrongly (e.g. missing DTO type metadata), or two providers declaring one tool name.
 */
export function discoverNestTools(
  wrappers: readonly InstanceWrapper[],
  scanner: MetadataScanner,
): DiscoveredNestTool[] {
  const found: DiscoveredNestTool[] = [];
  const byName = new Map<string, DiscoveredNestTool>();
  const seen = new Set<unknown>();
  for (const wrapper of wrappers) {
    const metatype = toolClassOf(wrapper);
    if (!metatype) continue;
    const provider = metatype.name || String(wrapper.name);
    const definitions = withProvider(provider, () => buildToolDefinitions(metatype));
    if (definitions.length === 0) continue;
    const declared = new Set(definitions.map((definition) => definition.methodName));
    const methods = scanner.getAllMethodNames(metatype.prototype).filter((name) => declared.has(name));
    if (!isStaticWrapper(wrapper)) {
      throw scopedProviderError(wrapper, `${provider}.${methods[0] ?? [...declared][0]}`);
    }
    const instance = wrapper.instance as object | undefined;
    if (!instance || seen.has(instance)) continue;
    seen.add(instance);
    const tools = withProvider(provider, () => scanTools(instance));
    for (const tool of tools) {
      const source = tool.metadata.source as { methodName?: string } | undefined;
      const entry: DiscoveredNestTool = { tool, provider, methodName: source?.methodName ?? tool.name };
      const previous = byName.get(tool.name);
      if (previous) {
        throw new ToolDefinitionError(
          `Two Nest providers declare the tool '${tool.name}': ${previous.provider}.${previous.methodName} and ` +
            `${entry.provider}.${entry.methodName}. Tool names must be unique in one agent: rename one of them in its @Tool({ name }).`,
          { toolName: tool.name },
        );
      }
      byName.set(tool.name, entry);
      found.push(entry);
    }
  }
  return found;
}

/**
 * The class whose `@Tool` metadata applies to a provider: its metatype for a class provider; for a
 * `useFactory`/`useExisting` provider (metatype is the factory) or a `useValue` one (metatype is null), the
 * class of the instance it produced. Plain objects and prototype-less values have none.
 */
export function toolClassOf(wrapper: InstanceWrapper): (new (...args: never[]) => object) | undefined {
  const metatype = wrapper.metatype as unknown;
  if (!wrapper.isFactory && typeof metatype === 'function' && metatype.prototype) {
    return metatype as new (...args: never[]) => object;
  }
  let instance: unknown;
  try {
    instance = wrapper.instance;
  } catch {
    return undefined;
  }
  if (typeof instance !== 'object' || instance === null) return undefined;
  let constructor: unknown;
  try {
    constructor = (Object.getPrototypeOf(instance) as { constructor?: unknown } | null)?.constructor;
  } catch {
    return undefined;
  }
  if (typeof constructor !== 'function' || constructor === Object || !constructor.prototype) return undefined;
  return constructor as new (...args: never[]) => object;
}

export function withProvider<T>(provider: string, build: () => T): T {
  try {
    return build();
  } catch (error) {
    if (!(error instanceof ProtolinkError)) throw error;
    throw new ToolDefinitionError(`Nest provider ${provider}: ${error.message}`, {
      cause: error,
      toolName: error.toolName,
    });
  }
}

export function scopedProviderError(
  wrapper: InstanceWrapper,
  method: string,
  what = 'a @Tool',
): ToolDefinitionError {
  const singletonNeeded =
    'Tools are registered once on the application-wide Agent, so their provider must be a singleton';
  if (wrapper.scope === Scope.TRANSIENT || wrapper.scope === Scope.REQUEST) {
    const scope = wrapper.scope === Scope.TRANSIENT ? 'transient' : 'request-scoped';
    return new ToolDefinitionError(
      `${method} is ${what} on a ${scope} provider. ${singletonNeeded}: remove the scope option ` +
        '(or move the tool to a singleton service that takes the request data as arguments).',
    );
  }
  // Nest makes a provider request-scoped when anything it injects is; name that dependency.
  const path = findRequestScopedPath(wrapper);
  const cause = path[path.length - 1]!;
  const causeName = describeNestProvider(cause);
  const how =
    cause.token === REQUEST
      ? 'the request object (@Inject(REQUEST))'
      : cause.scope === Scope.REQUEST
        ? `${causeName}, declared with scope: Scope.REQUEST`
        : causeName;
  return new ToolDefinitionError(
    `${method} is ${what} on a provider that is request-scoped because it depends on ${how} ` +
      `(${path.map(describeNestProvider).join(' → ')}). ${singletonNeeded}: make ${causeName} a singleton, ` +
      `or move the tool to a singleton service that does not inject ${causeName} (take the request data as tool arguments).`,
  );
}

export function isStaticWrapper(wrapper: InstanceWrapper): boolean {
  if (wrapper.scope === Scope.REQUEST || wrapper.scope === Scope.TRANSIENT) return false;
  return wrapper.isDependencyTreeStatic();
}
