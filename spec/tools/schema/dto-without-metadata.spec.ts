import { join } from 'path';
import { Agent } from '../../../lib/agents/agent';
import { ToolDefinitionError } from '../../../lib/errors/tool-definition-error';
import { ToolValidationError } from '../../../lib/errors/tool-validation-error';
import { PropertyType } from '../../../lib/tools/decorators/property-type.decorator';
import { classToJsonSchema } from '../../../lib/tools/schema/class-to-json-schema';
import * as typedByTsc from '../../fixtures/toolsets/esbuild-untyped-dto';
import { loadWithEsbuild } from '../../fixtures/toolsets/load-with-esbuild';

const FIXTURE = join(__dirname, '../../fixtures/toolsets/esbuild-untyped-dto.ts');
const card = { name: 'notes', description: 'Notes', url: 'runtime://notes' };
const FIXES =
  "Fix it one of three ways: 1) say the type with a decorator, a class-validator one (@IsString(), @IsInt(), @IsNumber(), @IsBoolean(), @IsArray(), @ValidateNested() with @Type(() => SomeDto)) or @PropertyType('string') " +
  "(@PropertyType(SomeDto), @PropertyType([SomeDto]); @PropertyType('any') where any JSON value is allowed); " +
  '2) compile with swc and jsc.transform.decoratorMetadata: true (with jsc.parser.decorators and legacyDecorator); ' +
  '3) compile with tsc ("experimentalDecorators" and "emitDecoratorMetadata" in tsconfig.json, and import \'reflect-metadata\').';
const WHY =
  'the class was compiled without decorator metadata (esbuild and tsx never emit it, whatever tsconfig.json says; vitest emits it only from version 4 and with "emitDecoratorMetadata": true in tsconfig.json)';

describe('DTO properties without decorator metadata (esbuild)', () => {
  const { code, exports } = loadWithEsbuild<typeof typedByTsc>(FIXTURE);

  it('compiles without design:type', () => {
    expect(code).not.toContain('design:type');
  });

  it('refuses a property whose decorators say no type, naming it, why, and the three fixes', () => {
    expect(() => classToJsonSchema(exports.NoteDto)).toThrow(ToolDefinitionError);
    expect(() => classToJsonSchema(exports.NoteDto)).toThrow(
      `DTO property NoteDto.note has no type: ${WHY} and its decorators (@IsOptional()) say none, so its schema would accept anything. ${FIXES}`,
    );
    expect(() => classToJsonSchema(exports.AnythingDto)).toThrow(
      `DTO property AnythingDto.anything has no type: ${WHY} and its decorators (@Allow()) say none`,
    );
    expect(() => classToJsonSchema(exports.CountDto)).toThrow(
      /DTO property CountDto\.count has no type: .*\(@Min\(\)\)/,
    );
  });

  it('refuses the toolset at registration, not at the first call', () => {
    expect(() => new Agent({ card, toolsets: [new exports.NoteTools()] })).toThrow(
      /DTO property NoteDto\.note has no type/,
    );
  });

  it('takes every type from @PropertyType: names, any, classes, arrays of classes, Date', () => {
    const schema = classToJsonSchema(exports.DeclaredDto);
    expect(schema.properties).toEqual({
      note: { type: 'string' },
      anything: {},
      count: { type: 'integer', minimum: 1 },
      address: {
        type: 'object',
        properties: { city: { type: 'string' } },
        required: ['city'],
        additionalProperties: false,
      },
      stops: {
        type: 'array',
        items: {
          type: 'object',
          properties: { city: { type: 'string' } },
          required: ['city'],
          additionalProperties: false,
        },
      },
      when: { type: 'string', format: 'date-time' },
    });
    expect(schema.required).toEqual(['anything']);
  });

  it('validates and builds declared properties as metadata would', async () => {
    const agent = new Agent({ card, toolsets: [new exports.DeclaredTools()] });
    await expect(
      agent.callTool('declared', { input: { anything: 1, note: { x: 1 } } }),
    ).rejects.toBeInstanceOf(ToolValidationError);
    const result = (await agent.callTool('declared', {
      input: {
        anything: { any: ['thing'] },
        count: '2',
        address: { city: 'Athens' },
        stops: [{ city: 'Rome' }],
        when: '2026-12-04T10:00:00.000Z',
      },
    })) as typedByTsc.DeclaredDto;
    expect(result).toBeInstanceOf(exports.DeclaredDto);
    expect(result.count).toBe(2);
    expect(result.anything).toEqual({ any: ['thing'] });
    expect(result.address).toBeInstanceOf(exports.Address);
    expect(result.stops![0]).toBeInstanceOf(exports.Address);
    expect(result.when).toBeInstanceOf(Date);
  });
});

describe('the same DTOs compiled by tsc (decorator metadata emitted)', () => {
  it('take their types from design:type', () => {
    expect(classToJsonSchema(typedByTsc.NoteDto).properties).toEqual({
      title: { type: 'string' },
      note: { type: 'string' },
    });
    expect(classToJsonSchema(typedByTsc.AnythingDto).properties).toEqual({ anything: { type: 'number' } });
  });
});

describe('@PropertyType', () => {
  it('refuses an unknown type name, a bad array and a static property', () => {
    expect(() => PropertyType('int' as never)).toThrow(ToolDefinitionError);
    expect(() => PropertyType('int' as never)).toThrow(
      "@PropertyType() has the unknown type 'int'; use one of string, number, integer, boolean, object, array, null, any, a class (e.g. @PropertyType(Booking)) or an array of one class (e.g. @PropertyType([Booking])).",
    );
    expect(() => PropertyType([String, Number] as never)).toThrow(
      '@PropertyType() has an array type with 2 entries; an array type names exactly one class, e.g. @PropertyType([Booking]).',
    );
    class Holder {}
    expect(() => PropertyType('string')(Holder, 'shared')).toThrow(
      '@PropertyType() is on the static property Holder.shared; DTO properties are instance properties.',
    );
    expect(() => PropertyType('string')(Holder.prototype, Symbol('s'))).toThrow(
      '@PropertyType() cannot type a symbol-named property.',
    );
  });
});
