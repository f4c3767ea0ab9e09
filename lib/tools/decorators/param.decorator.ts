import { ToolDefinitionError } from '../../errors/tool-definition-error';
import { recordParam } from '../metadata/tool-metadata';
import type { ParamOptions } from '../metadata/metadata-records';

const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;
const PARAM_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

/**
 * Marks a tool method's parameter as part of the argument object. With a name, the parameter is one
 * property (`@Param('guests', { type: 'integer' })`); without one, its DTO class is the whole object.
 *
 * @throws ToolDefinitionError for a bad name or option, or a parameter of a constructor or a static method.
 */
export function Param(name?: string, options: ParamOptions = {}): ParameterDecorator {
  if (name !== undefined && (typeof name !== 'string' || !PARAM_NAME.test(name))) {
    throw new ToolDefinitionError(
      `@Param(${JSON.stringify(name)}) has an invalid name: use letters, digits, _ and - (starting with a letter or _), e.g. @Param('max_results').`,
    );
  }
  if (typeof options !== 'object' || options === null) {
    throw new ToolDefinitionError(
      `@Param(${JSON.stringify(name ?? '')}) options must be an object, e.g. { type: 'integer' }.`,
    );
  }
  if (options.type !== undefined && !PARAM_TYPES.has(options.type)) {
    throw new ToolDefinitionError(
      `@Param(${JSON.stringify(name ?? '')}) has the unknown type '${options.type}'; use one of ${[...PARAM_TYPES].join(', ')}.`,
    );
  }
  if (name === undefined && (options.default !== undefined || options.optional)) {
    throw new ToolDefinitionError(
      'An unnamed @Param() is the whole argument object; it cannot be optional or have a default.',
    );
  }
  const frozen = Object.freeze({ ...options });
  return (target, propertyKey, index) => {
    if (propertyKey === undefined || typeof propertyKey === 'symbol') {
      throw new ToolDefinitionError(
        `@Param(${JSON.stringify(name ?? '')}) is on a constructor parameter; put it on a @Tool method's parameter.`,
      );
    }
    if (typeof target === 'function') {
      throw new ToolDefinitionError(
        `@Param(${JSON.stringify(name ?? '')}) is on a parameter of the static method ${target.name}.${propertyKey}; tools must be instance methods.`,
      );
    }
    const classTarget = (target as object).constructor;
    recordParam(
      classTarget,
      propertyKey,
      name === undefined
        ? { kind: 'whole', index, options: frozen }
        : { kind: 'named', index, name, options: frozen },
    );
  };
}
