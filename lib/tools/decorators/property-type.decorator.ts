import { ToolDefinitionError } from '../../errors/tool-definition-error';
import type { PropertyTypeDeclaration } from '../metadata/metadata-records';
import { recordPropertyType } from '../metadata/tool-metadata';
import { assertDeclaredType } from './assert-declared-type';

/**
 * Declares the type of a DTO property where decorator metadata cannot say it (esbuild, tsx and other
 * toolchains that emit no `design:type`), or narrows it: a schema type name (`'string'`, `'integer'`…), a
 * nested DTO class (`Address`), an array of one (`[Address]`), or `'any'` for a property that accepts any
 * JSON value. Used beside the property's class-validator decorators (`@IsOptional()`, `@Allow()`…), which
 * make it part of the DTO.
 *
 * @throws ToolDefinitionError for an unknown type or a symbol-named property.
 */
export function PropertyType(type: PropertyTypeDeclaration): PropertyDecorator {
  assertDeclaredType('@PropertyType()', type, (form) => `@PropertyType(${form})`, true);
  const declared = Array.isArray(type) ? Object.freeze([...type]) : type;
  return (target, propertyKey) => {
    if (typeof propertyKey === 'symbol')
      throw new ToolDefinitionError('@PropertyType() cannot type a symbol-named property.');
    if (typeof target === 'function')
      throw new ToolDefinitionError(
        `@PropertyType() is on the static property ${target.name}.${propertyKey}; DTO properties are instance properties.`,
      );
    recordPropertyType((target as object).constructor, propertyKey, declared as PropertyTypeDeclaration);
  };
}
