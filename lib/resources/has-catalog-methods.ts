import { readOwnCatalogMethods } from '../tools/metadata/tool-metadata';

/** Whether a class or one of its bases has `@Resource`, `@ResourceTemplate` or `@Prompt` methods. */
export function hasCatalogMethods(classTarget: Function): boolean {
  for (
    let current: unknown = classTarget;
    typeof current === 'function' && current !== Function.prototype;
    current = Object.getPrototypeOf(current)
  )
    if (readOwnCatalogMethods(current as Function).size > 0) return true;
  return false;
}
