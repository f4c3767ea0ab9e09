import { ToolDefinitionError } from '../../errors/tool-definition-error';
import { recordParam } from '../metadata/tool-metadata';

/**
 * Injects the active RunContext (with its AbortSignal) into a tool method; never part of the schema.
 *
 * @throws ToolDefinitionError on a parameter of a constructor or a static method.
 */
export function Context(): ParameterDecorator {
  return (target, propertyKey, index) => {
    if (propertyKey === undefined || typeof propertyKey === 'symbol') {
      throw new ToolDefinitionError(
        '@Context() is on a constructor parameter; put it on a @Tool method parameter.',
      );
    }
    if (typeof target === 'function') {
      throw new ToolDefinitionError(
        `@Context() is on a parameter of the static method ${target.name}.${propertyKey}; tools must be instance methods.`,
      );
    }
    recordParam((target as object).constructor, propertyKey, { kind: 'context', index });
  };
}
