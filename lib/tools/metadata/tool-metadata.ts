import 'reflect-metadata';
import {
  CATALOG_METHODS_KEY,
  PROPERTY_DESCRIPTIONS_KEY,
  PROPERTY_TYPES_KEY,
  TOOL_METHODS_KEY,
  TOOL_PARAMS_KEY,
  TOOLSET_KEY,
} from './metadata-keys';
import type {
  CatalogMethodRecord,
  ParamRecord,
  PropertyTypeDeclaration,
  ToolMethodRecord,
  ToolsetRecord,
} from './metadata-records';

function ownMap<V>(target: object, key: symbol): Map<string, V> {
  let map = Reflect.getOwnMetadata(key, target) as Map<string, V> | undefined;
  if (!map) {
    map = new Map();
    Reflect.defineMetadata(key, map, target);
  }
  return map;
}

/** Records a `@Tool` method on its class. Returns false when the method already had one. */
export function recordToolMethod(classTarget: Function, record: ToolMethodRecord): boolean {
  const map = ownMap<ToolMethodRecord>(classTarget, TOOL_METHODS_KEY);
  if (map.has(record.methodName)) return false;
  map.set(record.methodName, Object.freeze(record));
  return true;
}

/** Records a catalog method (`@Resource`, `@ResourceTemplate`, `@Prompt`). False when it already had one. */
export function recordCatalogMethod(classTarget: Function, record: CatalogMethodRecord): boolean {
  const map = ownMap<CatalogMethodRecord>(classTarget, CATALOG_METHODS_KEY);
  if (map.has(record.methodName)) return false;
  map.set(record.methodName, Object.freeze(record));
  return true;
}

/** The catalog method records declared on this class itself (not its bases). */
export function readOwnCatalogMethods(classTarget: Function): ReadonlyMap<string, CatalogMethodRecord> {
  return (
    (Reflect.getOwnMetadata(CATALOG_METHODS_KEY, classTarget) as
      Map<string, CatalogMethodRecord> | undefined) ?? new Map()
  );
}

/** Records one `@Param`/`@Context` parameter of a method on its class. */
export function recordParam(classTarget: Function, methodName: string, record: ParamRecord): void {
  const map = ownMap<ParamRecord[]>(classTarget, TOOL_PARAMS_KEY);
  const list = map.get(methodName) ?? [];
  map.set(methodName, [...list, Object.freeze(record)]);
}

/** Records `@Toolset` defaults on a class. */
export function recordToolset(classTarget: Function, record: ToolsetRecord): void {
  Reflect.defineMetadata(TOOLSET_KEY, Object.freeze(record), classTarget);
}

/** Records a `@Description` text of a DTO property. */
export function recordPropertyDescription(
  classTarget: Function,
  property: string,
  description: string,
): void {
  ownMap<string>(classTarget, PROPERTY_DESCRIPTIONS_KEY).set(property, description);
}

/** Records the `@PropertyType` of a DTO property. */
export function recordPropertyType(
  classTarget: Function,
  property: string,
  type: PropertyTypeDeclaration,
): void {
  ownMap<PropertyTypeDeclaration>(classTarget, PROPERTY_TYPES_KEY).set(property, type);
}

/** The `@PropertyType` of a DTO property, looked up through the class chain (the subclass wins). */
export function readPropertyType(
  classTarget: Function,
  property: string,
): PropertyTypeDeclaration | undefined {
  for (
    let current: unknown = classTarget;
    typeof current === 'function' && current !== Function.prototype;
    current = Object.getPrototypeOf(current)
  ) {
    const map = Reflect.getOwnMetadata(PROPERTY_TYPES_KEY, current as object) as
      Map<string, PropertyTypeDeclaration> | undefined;
    const type = map?.get(property);
    if (type !== undefined) return type;
  }
  return undefined;
}

/** The `@Tool` records declared on this class itself (not its bases). */
export function readOwnToolMethods(classTarget: Function): ReadonlyMap<string, ToolMethodRecord> {
  return (
    (Reflect.getOwnMetadata(TOOL_METHODS_KEY, classTarget) as Map<string, ToolMethodRecord> | undefined) ??
    new Map()
  );
}

/** The `@Param`/`@Context` records declared on this class itself, by method name. */
export function readOwnParams(classTarget: Function): ReadonlyMap<string, readonly ParamRecord[]> {
  return (
    (Reflect.getOwnMetadata(TOOL_PARAMS_KEY, classTarget) as Map<string, ParamRecord[]> | undefined) ??
    new Map()
  );
}

/** The nearest `@Toolset` defaults of a class or its bases. */
export function readToolset(classTarget: Function): ToolsetRecord | undefined {
  return Reflect.getMetadata(TOOLSET_KEY, classTarget) as ToolsetRecord | undefined;
}

/** The `@Description` of a DTO property, looked up through the class chain. */
export function readPropertyDescription(classTarget: Function, property: string): string | undefined {
  for (
    let current: unknown = classTarget;
    typeof current === 'function' && current !== Function.prototype;
    current = Object.getPrototypeOf(current)
  ) {
    const map = Reflect.getOwnMetadata(PROPERTY_DESCRIPTIONS_KEY, current as object) as
      Map<string, string> | undefined;
    const text = map?.get(property);
    if (text !== undefined) return text;
  }
  return undefined;
}

/** Whether any decorator metadata (`design:*`) was emitted for a class member. */
export function readDesignParamTypes(prototype: object, methodName: string): Function[] | undefined {
  return Reflect.getMetadata('design:paramtypes', prototype, methodName) as Function[] | undefined;
}

/** The emitted `design:returntype` of a method, if any. */
export function readDesignReturnType(prototype: object, methodName: string): Function | undefined {
  return Reflect.getMetadata('design:returntype', prototype, methodName) as Function | undefined;
}

/** The emitted `design:type` of a property, if any. */
export function readDesignType(prototype: object, property: string): Function | undefined {
  return Reflect.getMetadata('design:type', prototype, property) as Function | undefined;
}
