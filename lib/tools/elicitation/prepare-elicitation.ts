import { ToolDefinitionError } from '../../errors/tool-definition-error';
import { ToolRuntimeError } from '../../errors/tool-runtime-error';
import type { ElicitationResult, ElicitationSchemaInput } from '../../runtime/tool-call-channel';
import type { JsonSchema } from '../json-schema';
import { classToJsonSchema } from '../schema/class-to-json-schema';
import { validateToolArgs } from '../validation/validate-tool-args';

/** An elicitation's schema, checked and ready to send, with the DTO class to rebuild answers into. */
export interface PreparedElicitation {
  /** The JSON Schema sent to the client (`requestedSchema`). */
  readonly requestedSchema: JsonSchema;
  /** The DTO class the accepted content becomes, when a class was given. */
  readonly dto: Function | undefined;
}

const PRIMITIVE_TYPES = new Set(['string', 'number', 'integer', 'boolean']);

/**
 * Checks the schema of `context.elicit()`: MCP clients render flat forms only, so it must be an object
 * schema whose properties are strings, numbers, integers, booleans, string enums, or arrays of string
 * enums (multi-select, SEP-1330). A DTO class is turned into its JSON Schema first.
 *
 * @throws ToolDefinitionError naming the first field a form cannot show, with the fix.
 */
export function prepareElicitation(input: ElicitationSchemaInput, toolName?: string): PreparedElicitation {
  const where = toolName ? `Tool '${toolName}' elicit()` : 'elicit()';
  let schema: JsonSchema;
  let dto: Function | undefined;
  if (typeof input === 'function') {
    dto = input;
    schema = classToJsonSchema(input);
    delete (schema as Record<string, unknown>).title;
  } else if (typeof input === 'object' && input !== null && !Array.isArray(input)) {
    schema = input as JsonSchema;
  } else {
    throw new ToolDefinitionError(
      `${where}: the schema must be a JSON Schema object ({ type: 'object', properties: { … } }) or a class-validator DTO class.`,
      { toolName },
    );
  }
  if (schema.type !== 'object' || typeof schema.properties !== 'object' || schema.properties === null) {
    throw new ToolDefinitionError(
      `${where}: the schema must be { type: 'object', properties: { … } } with flat primitive fields.`,
      { toolName },
    );
  }
  for (const [name, property] of Object.entries(schema.properties as Record<string, unknown>)) {
    if (!isFormField(property)) {
      throw new ToolDefinitionError(
        `${where}: field '${name}' cannot be shown in a form; MCP elicitation takes strings, numbers, integers, booleans, string enums and arrays of string enums, not nested objects or references.`,
        { toolName },
      );
    }
  }
  return { requestedSchema: schema, dto };
}

/**
 * Reads a client's or handler's answer to an elicitation: `action` must be `accept`, `decline` or
 * `cancel`; accepted content is validated and coerced against the schema, with defaults applied for
 * omitted fields (SEP-1034), and rebuilt as the DTO instance when a class was given.
 *
 * @throws ToolRuntimeError when the answer is malformed.
 * @throws ToolValidationError when accepted content does not match the schema.
 */
export function readElicitationAnswer(
  answer: unknown,
  prepared: PreparedElicitation,
  toolName?: string,
): ElicitationResult<unknown> {
  const where = toolName ? ` to tool '${toolName}'` : '';
  if (typeof answer !== 'object' || answer === null) {
    throw new ToolRuntimeError(`The answer${where} to an elicitation is not an object with an action.`);
  }
  const { action, content } = answer as { action?: unknown; content?: unknown };
  if (action !== 'accept' && action !== 'decline' && action !== 'cancel') {
    throw new ToolRuntimeError(
      `The answer${where} to an elicitation has action ${JSON.stringify(action)}; expected 'accept', 'decline' or 'cancel'.`,
    );
  }
  if (action !== 'accept') return Object.freeze({ action });
  const validated = validateToolArgs(content ?? {}, prepared.requestedSchema, {
    toolName,
    dto: prepared.dto ? { whole: prepared.dto } : undefined,
  });
  return Object.freeze({ action, content: validated });
}

function isFormField(property: unknown): boolean {
  if (typeof property !== 'object' || property === null || Array.isArray(property)) return false;
  const record = property as Record<string, unknown>;
  if (typeof record.type === 'string' && PRIMITIVE_TYPES.has(record.type)) return true;
  if (record.type === 'array') {
    const items = record.items as Record<string, unknown> | undefined;
    return (
      typeof items === 'object' &&
      items !== null &&
      (Array.isArray(items.enum) || Array.isArray(items.anyOf) || Array.isArray(items.oneOf))
    );
  }
  return false;
}
