import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import type { PropertyTypeDeclaration } from '../metadata/metadata-records';
import { readDesignType, readPropertyType } from '../metadata/tool-metadata';

/** What is known of one DTO property from class-validator, class-transformer and design metadata. */
export interface DtoPropertyModel {
  readonly name: string;
  readonly validations: readonly ValidationMetadata[];
  readonly designType: Function | undefined;
  /** The `@PropertyType` declaration, when there is one. */
  readonly declaredType: PropertyTypeDeclaration | undefined;
  /** The nested DTO class (from `@Type`, `@IsInstance` or `design:type`), when the property holds DTOs. */
  readonly nestedClass: Function | undefined;
  /** Whether the property is an array of `nestedClass`. */
  readonly nestedIsArray: boolean;
}

/** A DTO class as Protolink sees it: its properties and how to rebuild nested instances. */
export interface DtoModel {
  readonly target: Function;
  readonly properties: ReadonlyMap<string, DtoPropertyModel>;
  /** Properties holding nested DTOs, with a lazy model (DTOs may be recursive). */
  readonly nested: ReadonlyMap<string, { readonly model: () => DtoModel }>;
  /** Properties typed `Date` (rebuilt from ISO strings). */
  readonly dates: ReadonlySet<string>;
}

const cache = new WeakMap<Function, DtoModel>();
const PRIMITIVE_TYPES = new Set<Function>([
  String,
  Number,
  Boolean,
  Object,
  Array,
  Date,
  Function,
  Promise,
  Symbol,
  BigInt,
]);

/** Whether a class has class-validator decorators (on itself or its bases). */
export function isDtoClass(target: unknown): boolean {
  if (typeof target !== 'function' || PRIMITIVE_TYPES.has(target)) return false;
  return getMetadataStorage().getTargetValidationMetadatas(target, '', true, false).length > 0;
}

/** Returns the (cached) model of a DTO class. */
export function getDtoModel(target: Function): DtoModel {
  const cached = cache.get(target);
  if (cached) return cached;
  const byName = new Map<string, ValidationMetadata[]>();
  for (const metadata of inBaseFirstOrder(
    target,
    getMetadataStorage().getTargetValidationMetadatas(target, '', true, false),
  )) {
    const list = byName.get(metadata.propertyName) ?? [];
    list.push(metadata);
    byName.set(metadata.propertyName, list);
  }
  const properties = new Map<string, DtoPropertyModel>();
  const nested = new Map<string, { model: () => DtoModel }>();
  const dates = new Set<string>();
  for (const [name, validations] of byName) {
    const declaredType = readPropertyType(target, name);
    // A declared class (or [Class]) stands where decorator metadata would: it is the property's type.
    const declaredClass = (Array.isArray(declaredType) ? declaredType[0] : declaredType) as unknown;
    const designType =
      typeof declaredClass === 'function'
        ? Array.isArray(declaredType)
          ? Array
          : (declaredClass as Function)
        : readDesignType(target.prototype, name);
    const typeMetadata = defaultMetadataStorage.findTypeMetadata(target, name);
    const instanceOf = validations.find((item) => item.name === 'isInstance')?.constraints?.[0] as
      Function | undefined;
    const declared =
      (typeMetadata?.typeFunction?.() as Function | undefined) ??
      (Array.isArray(declaredType) ? (declaredType[0] as Function) : undefined);
    const hasNestedValidation = validations.some((item) => item.type === 'nestedValidation');
    let nestedClass: Function | undefined = declared ?? instanceOf;
    if (
      !nestedClass &&
      (hasNestedValidation || typeof declaredType === 'function') &&
      designType &&
      !PRIMITIVE_TYPES.has(designType)
    )
      nestedClass = designType;
    if (nestedClass && PRIMITIVE_TYPES.has(nestedClass)) {
      if (nestedClass === Date) dates.add(name);
      nestedClass = undefined;
    }
    if (designType === Date) dates.add(name);
    const nestedIsArray =
      designType === Array ||
      validations.some(
        (item) => item.each && (item.type === 'nestedValidation' || item.name === 'isInstance'),
      );
    properties.set(
      name,
      Object.freeze({ name, validations, designType, declaredType, nestedClass, nestedIsArray }),
    );
    if (nestedClass) {
      const nestedTarget = nestedClass;
      let nestedModel: DtoModel | undefined;
      // Looked up on first use (the class may be this one, or declared later), then kept.
      nested.set(name, { model: () => (nestedModel ??= getDtoModel(nestedTarget)) });
    }
  }
  const model: DtoModel = Object.freeze({ target, properties, nested, dates });
  cache.set(target, model);
  return model;
}

/**
 * Orders metadata so base-class properties come first, as they are declared (class-validator lists the
 * class's own properties before inherited ones, which would put a subclass field before `id`).
 */
function inBaseFirstOrder(target: Function, metadatas: ValidationMetadata[]): ValidationMetadata[] {
  const depth = (owner: unknown): number => {
    let level = 0;
    for (
      let current: unknown = target;
      typeof current === 'function';
      current = Object.getPrototypeOf(current)
    ) {
      if (current === owner) return -level;
      level += 1;
    }
    return 0;
  };
  return metadatas
    .map((metadata, index) => ({ metadata, index, depth: depth(metadata.target) }))
    .sort((left, right) => left.depth - right.depth || left.index - right.index)
    .map((entry) => entry.metadata);
}
