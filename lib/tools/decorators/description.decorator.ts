import { ToolDefinitionError } from '../../errors/tool-definition-error';
import { recordPropertyDescription } from '../metadata/tool-metadata';

/** Describes a DTO property for the model; becomes the property's `description` in the JSON Schema. */
export function Description(text: string): PropertyDecorator {
  if (typeof text !== 'string' || text.length === 0) {
    throw new ToolDefinitionError(
      "@Description() needs a non-empty text, e.g. @Description('City to search in').",
    );
  }
  return (target, propertyKey) => {
    if (typeof propertyKey === 'symbol')
      throw new ToolDefinitionError('@Description() cannot describe a symbol-named property.');
    recordPropertyDescription((target as object).constructor, propertyKey, text);
  };
}
