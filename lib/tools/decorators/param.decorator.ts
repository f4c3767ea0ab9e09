import { ToolDefinitionError } from '../../errors/tool-definition-error';
import { assertKnownOptions, defineKnownOptions } from '../../runtime/assert-known-options';
import { recordParam } from '../metadata/tool-metadata';
import type { ParamOptions } from '../metadata/metadata-records';
import { assertDeclaredType } from './assert-declared-type';

/** The options of `@Param`, and advice for the names people pass instead. */
const PARAM_OPTIONS = defineKnownOptions<ParamOptions>(
  '@Param()',
  { type: true, schema: true, optional: true, description: true, default: true },
  {
    required: 'parameters are required unless optional: true or a default is given; use optional instead',
    name: "the name is @Param's first argument: @Param('max_results', { … })",
  },
);

const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

/**
 * Marks a tool method's parameter as part of the argument object. With a name, the parameter is one
 * property (`@Param('guests', { type: 'integer' })`); without one, its DTO class is the whole object
 * (`@Param()`, or `@Param({ type: SearchQuery })` where decorator metadata is not emitted). `type` may be a
 * class or `[Class]`, which replaces decorator metadata where the compiler emits none (esbuild, tsx).
 *
 * @throws ToolDefinitionError for a bad name, an option that is wrong or not known, or a parameter of a
 *   constructor or a static method.
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
  assertKnownOptions(options, PARAM_OPTIONS, { where: `@Param(${label})` });
  if (options.type !== undefined)
    assertDeclaredType(`@Param(${label})`, options.type, (form) => `{ type: ${form} }`);
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
