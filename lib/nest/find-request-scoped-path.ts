import { Scope } from '@nestjs/common';
import type { InstanceWrapper } from '@nestjs/core/injector/instance-wrapper';

/**
 * Returns the chain of providers through which a provider became request-scoped: the provider itself, then
 * each dependency (constructor, property or enhancer) down to the first one that is request-scoped of its
 * own (`scope: Scope.REQUEST`, or Nest's `REQUEST` object), using the injector's own verdict
 * (`isDependencyTreeStatic()`). Returns just the provider when it is request-scoped itself, or when no
 * such dependency is found.
 */
export function findRequestScopedPath(wrapper: InstanceWrapper): InstanceWrapper[] {
  return walk(wrapper, new Set()) ?? [wrapper];
}

function walk(wrapper: InstanceWrapper, visited: Set<InstanceWrapper>): InstanceWrapper[] | undefined {
  if (visited.has(wrapper)) return undefined;
  visited.add(wrapper);
  if (wrapper.scope === Scope.REQUEST) return [wrapper];
  for (const dependency of dependenciesOf(wrapper)) {
    if (dependency.isDependencyTreeStatic()) continue;
    const rest = walk(dependency, visited);
    if (rest) return [wrapper, ...rest];
  }
  return undefined;
}

function dependenciesOf(wrapper: InstanceWrapper): InstanceWrapper[] {
  const constructorDependencies = wrapper.getCtorMetadata() ?? [];
  const properties = (wrapper.getPropertiesMetadata() ?? []).map((property) => property.wrapper);
  const enhancers = wrapper.getEnhancersMetadata() ?? [];
  // Optional dependencies that were not provided leave holes in the constructor list.
  return [...constructorDependencies, ...properties, ...enhancers].filter(
    (dependency): dependency is InstanceWrapper => dependency !== undefined && dependency !== null,
  );
}

/** A provider's name for messages: its class name, else its token (`REQUEST`, a string or symbol token). */
export function describeNestProvider(wrapper: InstanceWrapper): string {
  const token = wrapper.token as unknown;
  if (typeof token === 'function' && token.name) return token.name;
  if (typeof wrapper.name === 'string' && wrapper.name) return wrapper.name;
  return String(token);
}
