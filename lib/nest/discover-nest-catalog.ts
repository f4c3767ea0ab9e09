import type { InstanceWrapper } from '@nestjs/core/injector/instance-wrapper';
import { hasCatalogMethods } from '../resources/has-catalog-methods';
import { isStaticWrapper, scopedProviderError, toolClassOf } from './discover-nest-tools';

/** A Nest provider or controller with `@Resource`, `@ResourceTemplate` or `@Prompt` methods. */
export interface DiscoveredNestCatalog {
  /** The DI-constructed instance (its injected dependencies work inside the methods). */
  instance: object;
  /** The provider's or controller's class name. */
  provider: string;
}

/**
 * Finds the Nest providers and controllers that declare resources, resource templates or prompts, the same
 * way `discoverNestTools` finds tools (class, factory, value and alias providers; each instance once).
 *
 * @throws ToolDefinitionError naming the provider for a catalog method on a request-scoped or transient
 *   provider (the Agent is application-wide, so its provider must be a singleton).
 */
export function discoverNestCatalog(wrappers: readonly InstanceWrapper[]): DiscoveredNestCatalog[] {
  const found: DiscoveredNestCatalog[] = [];
  const seen = new Set<unknown>();
  for (const wrapper of wrappers) {
    const metatype = toolClassOf(wrapper);
    if (!metatype || !hasCatalogMethods(metatype)) continue;
    const provider = metatype.name || String(wrapper.name);
    if (!isStaticWrapper(wrapper))
      throw scopedProviderError(
        wrapper,
        provider,
        'a class with @Resource, @ResourceTemplate or @Prompt methods',
      );
    const instance = wrapper.instance as object | undefined;
    if (!instance || seen.has(instance)) continue;
    seen.add(instance);
    found.push({ instance, provider });
  }
  return found;
}
