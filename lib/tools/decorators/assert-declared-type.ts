import { ToolDefinitionError } from '../../errors/tool-definition-error';

const TYPE_NAMES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'];

/**
 * Checks an explicit type given to `@Param` (`{ type }`) or `@PropertyType`: a schema type name, a class, or
 * an array of exactly one class; `'any'` too where `allowAny` is set. `example` writes a form as the user would.
 *
 * @throws ToolDefinitionError naming what was given and the forms that are accepted.
 */
export function assertDeclaredType(
  label: string,
  type: unknown,
  example: (form: string) => string,
  allowAny = false,
): void {
  if (typeof type === 'function') return;
  if (typeof type === 'string' && (TYPE_NAMES.includes(type) || (allowAny && type === 'any'))) return;
  if (Array.isArray(type)) {
    if (type.length === 1 && typeof type[0] === 'function') return;
    throw new ToolDefinitionError(
      `${label} has an array type with ${type.length === 1 ? 'something that is not a class' : `${type.length} entries`}; an array type names exactly one class, e.g. ${example('[Booking]')}.`,
    );
  }
  const names = allowAny ? [...TYPE_NAMES, 'any'] : TYPE_NAMES;
  throw new ToolDefinitionError(
    `${label} has the unknown type '${String(type)}'; use one of ${names.join(', ')}, a class (e.g. ${example('Booking')}) or an array of one class (e.g. ${example('[Booking]')}).`,
  );
}
