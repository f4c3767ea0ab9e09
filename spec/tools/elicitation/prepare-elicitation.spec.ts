import 'reflect-metadata';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, Min, ValidateNested } from 'class-validator';
import { ToolDefinitionError } from '../../../lib/errors/tool-definition-error';
import { ToolRuntimeError } from '../../../lib/errors/tool-runtime-error';
import { ToolValidationError } from '../../../lib/errors/tool-validation-error';
import {
  prepareElicitation,
  readElicitationAnswer,
} from '../../../lib/tools/elicitation/prepare-elicitation';

class Booking {
  @IsString()
  name!: string;

  @IsInt()
  @Min(1)
  @Max(10)
  guests!: number;

  @IsOptional()
  @IsBoolean()
  breakfast?: boolean;

  @IsOptional()
  @IsIn(['single', 'double'])
  room?: string;
}

class Address {
  @IsString()
  city!: string;
}

class WithNested {
  @IsString()
  name!: string;

  @ValidateNested()
  address!: Address;
}

const FORM = {
  type: 'object',
  properties: {
    name: { type: 'string', default: 'John Doe' },
    age: { type: 'integer', minimum: 0, default: 30 },
    score: { type: 'number' },
    verified: { type: 'boolean', default: true },
    status: { type: 'string', enum: ['active', 'inactive'], default: 'active' },
    tags: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] } },
    titled: { type: 'array', items: { anyOf: [{ const: 'x', title: 'X' }] } },
    picked: { type: 'string', oneOf: [{ const: 'v1', title: 'V1' }] },
  },
  required: ['age'],
};

describe('prepareElicitation', () => {
  it('takes a JSON Schema of flat primitive fields as it is', () => {
    const prepared = prepareElicitation(FORM, 'ask');
    expect(prepared.requestedSchema).toBe(FORM);
    expect(prepared.dto).toBeUndefined();
  });

  it('turns a DTO class into its JSON Schema (without a title) and keeps the class', () => {
    const prepared = prepareElicitation(Booking);
    expect(prepared.dto).toBe(Booking);
    expect(prepared.requestedSchema).not.toHaveProperty('title');
    expect(prepared.requestedSchema).toMatchObject({
      type: 'object',
      properties: {
        name: { type: 'string' },
        guests: { type: 'integer', minimum: 1, maximum: 10 },
        breakfast: { type: 'boolean' },
        room: { enum: ['single', 'double'] },
      },
    });
    expect(prepared.requestedSchema.required).toEqual(expect.arrayContaining(['name', 'guests']));
  });

  it.each([
    [
      'a nested object',
      { type: 'object', properties: { address: { type: 'object', properties: {} } } },
      'address',
    ],
    ['a $ref', { type: 'object', properties: { address: { $ref: '#/$defs/address' } } }, 'address'],
    [
      'an array of objects',
      { type: 'object', properties: { list: { type: 'array', items: { type: 'object' } } } },
      'list',
    ],
    ['an array without items', { type: 'object', properties: { list: { type: 'array' } } }, 'list'],
    ['a field that is not a schema', { type: 'object', properties: { odd: 'string' } }, 'odd'],
    ['a field without a type', { type: 'object', properties: { any: {} } }, 'any'],
  ])('refuses %s, naming the field and the tool', (_case, schema, field) => {
    const failure = () => prepareElicitation(schema, 'ask');
    expect(failure).toThrow(ToolDefinitionError);
    expect(failure).toThrow(
      `Tool 'ask' elicit(): field '${field}' cannot be shown in a form; MCP elicitation takes strings, numbers, integers, booleans, string enums and arrays of string enums, not nested objects or references.`,
    );
  });

  it('refuses a DTO with a nested DTO field', () => {
    const failure = () => prepareElicitation(WithNested, 'ask');
    expect(failure).toThrow(ToolDefinitionError);
    expect(failure).toThrow(/field 'address' cannot be shown in a form/);
  });

  it.each([
    ['a string schema', { type: 'string' }],
    ['an object without properties', { type: 'object' }],
    ['properties that are null', { type: 'object', properties: null }],
    ['no type', { properties: { a: { type: 'string' } } }],
  ])('refuses %s: not an object schema', (_case, schema) => {
    const failure = () => prepareElicitation(schema);
    expect(failure).toThrow(ToolDefinitionError);
    expect(failure).toThrow(
      "elicit(): the schema must be { type: 'object', properties: { … } } with flat primitive fields.",
    );
  });

  it.each([null, undefined, 'name', 42, [{ type: 'string' }]])('refuses %p as a schema', (schema) => {
    const failure = () => prepareElicitation(schema as never, 'ask');
    expect(failure).toThrow(ToolDefinitionError);
    expect(failure).toThrow(
      "Tool 'ask' elicit(): the schema must be a JSON Schema object ({ type: 'object', properties: { … } }) or a class-validator DTO class.",
    );
    try {
      failure();
    } catch (error) {
      expect(error).toMatchObject({ code: 'TOOL_DEFINITION', toolName: 'ask' });
    }
  });
});

describe('readElicitationAnswer', () => {
  const form = prepareElicitation(FORM, 'ask');

  it('accepts, coerces ("30" → 30, "true" → true) and applies defaults for omitted fields', () => {
    const answer = readElicitationAnswer(
      { action: 'accept', content: { age: '31', score: '9.5', verified: 'false', tags: ['a', 'c'] } },
      form,
      'ask',
    );
    expect(answer).toEqual({
      action: 'accept',
      content: {
        name: 'John Doe',
        age: 31,
        score: 9.5,
        verified: false,
        status: 'active',
        tags: ['a', 'c'],
      },
    });
    expect(Object.isFrozen(answer)).toBe(true);
  });

  it('coerces "30" to 30', () => {
    const answer = readElicitationAnswer({ action: 'accept', content: { age: '30' } }, form);
    expect((answer.content as { age: unknown }).age).toBe(30);
  });

  it('fills every default when the user accepts an empty form (SEP-1034)', () => {
    const defaults = prepareElicitation({
      type: 'object',
      properties: {
        name: { type: 'string', default: 'John Doe' },
        age: { type: 'integer', default: 30 },
        score: { type: 'number', default: 95.5 },
        verified: { type: 'boolean', default: true },
      },
    });
    expect(readElicitationAnswer({ action: 'accept' }, defaults).content).toEqual({
      name: 'John Doe',
      age: 30,
      score: 95.5,
      verified: true,
    });
  });

  it('returns an instance of the DTO for a DTO schema, coerced', () => {
    const answer = readElicitationAnswer(
      { action: 'accept', content: { name: 'Ada', guests: '2', breakfast: true } },
      prepareElicitation(Booking, 'book'),
      'book',
    );
    expect(answer.action).toBe('accept');
    expect(answer.content).toBeInstanceOf(Booking);
    expect(answer.content).toMatchObject({ name: 'Ada', guests: 2, breakfast: true });
  });

  it.each(['decline', 'cancel'] as const)(
    '%s carries no content, even when the client sent some',
    (action) => {
      const answer = readElicitationAnswer({ action, content: { age: 'not a number' } }, form, 'ask');
      expect(answer).toEqual({ action });
      expect(answer).not.toHaveProperty('content');
    },
  );

  it.each([
    [
      { action: 'ok' },
      `The answer to tool 'ask' to an elicitation has action "ok"; expected 'accept', 'decline' or 'cancel'.`,
    ],
    [
      {},
      `The answer to tool 'ask' to an elicitation has action undefined; expected 'accept', 'decline' or 'cancel'.`,
    ],
    [{ action: 'ACCEPT' }, /has action "ACCEPT"/],
    [null, `The answer to tool 'ask' to an elicitation is not an object with an action.`],
    ['accept', `The answer to tool 'ask' to an elicitation is not an object with an action.`],
  ])('a malformed answer %p → ToolRuntimeError', (answer, message) => {
    const failure = () => readElicitationAnswer(answer, form, 'ask');
    expect(failure).toThrow(ToolRuntimeError);
    expect(failure).toThrow(message);
  });

  it('names no tool when none is known', () => {
    expect(() => readElicitationAnswer(undefined, form)).toThrow(
      'The answer to an elicitation is not an object with an action.',
    );
  });

  it.each([
    [{ age: 'thirty' }, /age/],
    [{ age: -1 }, /age/],
    [{ age: 3, status: 'gone' }, /status/],
    [{ age: 3, tags: ['z'] }, /tags/],
    [{ age: 3, verified: 'maybe' }, /verified/],
  ])('accepted content that does not match (%p) → ToolValidationError naming the field', (content, field) => {
    const failure = () => readElicitationAnswer({ action: 'accept', content }, form, 'ask');
    expect(failure).toThrow(ToolValidationError);
    expect(failure).toThrow(field);
    try {
      failure();
    } catch (error) {
      expect(error).toMatchObject({ code: 'TOOL_VALIDATION', toolName: 'ask' });
      expect((error as ToolValidationError).issues.length).toBeGreaterThan(0);
    }
  });

  it('a required field left out → ToolValidationError', () => {
    const strict = prepareElicitation({
      type: 'object',
      properties: { email: { type: 'string' } },
      required: ['email'],
    });
    expect(() => readElicitationAnswer({ action: 'accept', content: {} }, strict)).toThrow(
      ToolValidationError,
    );
    expect(() => readElicitationAnswer({ action: 'accept', content: {} }, strict)).toThrow(/email/);
  });

  it('content that is not an object → ToolValidationError', () => {
    const failure = () => readElicitationAnswer({ action: 'accept', content: ['a'] }, form, 'ask');
    expect(failure).toThrow(ToolValidationError);
    expect(failure).toThrow(/one JSON object, got an array/);
  });

  it('a DTO answer breaking a class-validator rule → ToolValidationError', () => {
    const failure = () =>
      readElicitationAnswer(
        { action: 'accept', content: { name: 'Ada', guests: 11 } },
        prepareElicitation(Booking, 'book'),
        'book',
      );
    expect(failure).toThrow(ToolValidationError);
    expect(failure).toThrow(/guests/);
  });
});
