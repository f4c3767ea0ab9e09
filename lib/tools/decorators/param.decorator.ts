import { ToolDefinitionError } from '../../errors/tool-definition-error';
import { recordParam } from '../metadata/tool-metadata';
import type { ParamOptions } from '../metadata/metadata-records';

const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;
const PARAM_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

/**
 * Marks a tool method's parameter as part of the argument object. With a name, the parameter is one
 * property (`@Param('guests', { type: 'integer' })`); without one, its DTO class is the whole object
 * (`@Param()`, or `@Param({ type: SearchQuery })` where decorator metadata is not emitted). `type` may be a
 * class or `[Class]`, which replaces the decorator metadata esbuild, tsx and vitest do not emit.
 *
 * @throws ToolDefinitionError for a bad name or option, or a parameter of a constructor or a static method.
 */
export function Param(name?: string, options?: ParamOptions): ParameterDecorator;
export function Param(options: ParamOptions): ParameterDecorator;
export function Param(
  nameOrOptions?: string | ParamOptions,
  maybeOptions: ParamOptions = {},
): ParameterDecorator {
  const unnamedWithOptions =
    typeof nameOrOptions === 'object' && nameOrOptions !== null && !Array.isArray(nameOrOptions);
  const name = unnamedWithOptions ? undefined : (nameOrOptions as string | undefined);
  const options = unnamedWithOptions ? (nameOrOptions as ParamOptions) : maybeOptions;
  if (name !== undefined && (typeof name !== 'string' || !PARAM_NAME.test(name))) {
    throw new ToolDefinitionError(
      `@Param(${JSON.stringify(name)}) has an invalid name: use letters, digits, _ and - (starting with a letter or _), e.g. @Param('max_results').`,
    );
  }
  const label = JSON.stringify(name ?? '');
  if (typeof options !== 'object' || options === null) {
    throw new ToolDefinitionError(`@Param(${label}) options must be an object, e.g. { type: 'integer' }.`);
  }
  assertParamType(label, options.type);
  if (name === undefined && (options.default !== undefined || options.optional)) {
    throw new ToolDefinitionError(
      'An unnamed @Param() is the whole argument object; it cannot be optional or have a default.',
    );
  }
  if (name === undefined && Array.isArray(options.type)) {
    throw new ToolDefinitionError(
      "An unnamed @Param() is the whole argument object, which cannot be an array; give it a name, e.g. @Param('items', { type: [Item] }).",
    );
  }
  const frozen = Object.freeze({ ...options });
  return (target, propertyKey, index) => {
    if (propertyKey === undefined || typeof propertyKey === 'symbol') {
      throw new ToolDefinitionError(
        `@Param(${label}) is on a constructor parameter; put it on a @Tool method's parameter.`,
      );
    }
    if (typeof target === 'function') {
      throw new ToolDefinitionError(
        `@Param(${label}) is on a parameter of the static method ${target.name}.${propertyKey}; tools must be instance methods.`,
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

function assertParamType(label: string, type: unknown): void {
  if (type === undefined || typeof type === 'function') return;
  if (typeof type === 'string' && PARAM_TYPES.has(type)) return;
  if (Array.isArray(type)) {
    if (type.length === 1 && typeof type[0] === 'function') return;
    throw new ToolDefinitionError(
      `@Param(${label}) has an array type with ${type.length === 1 ? 'something that is not a class' : `${type.length} entries`}; an array type names exactly one class, e.g. { type: [Booking] }.`,
    );
  }
  throw new ToolDefinitionError(
    `@Param(${label}) has the unknown type '${String(type)}'; use one of ${[...PARAM_TYPES].join(', ')}, a class (e.g. { type: Booking }) or an array of one class (e.g. { type: [Booking] }).`,
  );
}
