import { ToolDefinitionError } from '../errors/tool-definition-error';
import { readOptionalCapabilities, assertOptionalKind } from '../tools/decorators/assert-decorator-options';
import { recordCatalogMethod } from '../tools/metadata/tool-metadata';
import type { CatalogMethodRecord } from '../tools/metadata/metadata-records';

/**
 * Checks the options every catalog decorator shares (`title`, `description`, `mimeType`, `capabilities`,
 * `complete`) and returns a frozen copy (capabilities read once, normalized).
 *
 * @throws ToolDefinitionError naming the decorator, the option and the fix.
 */
export function freezeCatalogOptions<T extends object>(
  options: T,
  where: string,
  completable: readonly string[] | undefined,
): Readonly<T> {
  const record = options as Record<string, unknown>;
  for (const field of ['name', 'title', 'description', 'mimeType']) {
    if (record[field] !== undefined && typeof record[field] !== 'string')
      throw new ToolDefinitionError(`${where}: ${field} must be a string.`);
  }
  const capabilities = readOptionalCapabilities(record.capabilities, where);
  assertOptionalKind(record.complete, where, 'complete', ['object'], 'an object of providers by name');
  const complete = record.complete as Record<string, unknown> | undefined;
  for (const [name, provider] of Object.entries(complete ?? {})) {
    if (typeof provider !== 'function')
      throw new ToolDefinitionError(
        `${where}: complete.${name} must be a function (value, context?) => string[].`,
      );
    if (completable && !completable.includes(name))
      throw new ToolDefinitionError(
        `${where}: complete.${name} names no variable of the template; its variables are ${completable.join(', ') || 'none'}.`,
      );
  }
  return Object.freeze(capabilities === undefined ? { ...options } : { ...options, capabilities });
}

/**
 * The method decorator of a catalog decorator: refuses static and symbol-named methods and a second catalog
 * decorator on one method, then records the frozen options on the class.
 */
export function catalogMethodDecorator(
  kind: CatalogMethodRecord['kind'],
  where: string,
  options: Readonly<Record<string, unknown>>,
): MethodDecorator {
  return (target, propertyKey) => {
    if (typeof target === 'function') {
      throw new ToolDefinitionError(
        `${where} is on the static method ${String(propertyKey)}; put it on an instance method.`,
      );
    }
    if (typeof propertyKey === 'symbol') {
      throw new ToolDefinitionError(`${where} is on a symbol-named method; use a string-named method.`);
    }
    const classTarget = (target as object).constructor;
    if (!recordCatalogMethod(classTarget, { methodName: propertyKey, kind, options })) {
      throw new ToolDefinitionError(
        `${classTarget.name}.${propertyKey} has two of @Resource, @ResourceTemplate and @Prompt; keep one.`,
      );
    }
  };
}
