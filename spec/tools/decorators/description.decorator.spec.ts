import 'reflect-metadata';
import { IsInt, IsString } from 'class-validator';
import { ToolDefinitionError } from '../../../lib/errors/tool-definition-error';
import { Description } from '../../../lib/tools/decorators/description.decorator';
import { classToJsonSchema } from '../../../lib/tools/schema/class-to-json-schema';

class Address {
  @IsString() @Description('Street and number') street!: string;
  @IsInt() zip!: number;
}

class BillingAddress extends Address {
  @IsString() @Description('Company name for the invoice') company!: string;
}

describe('Description', () => {
  it('becomes the description of the property schema', () => {
    expect(classToJsonSchema(Address).properties).toEqual({
      street: { type: 'string', description: 'Street and number' },
      zip: { type: 'integer' },
    });
  });

  it('is inherited by subclasses', () => {
    const properties = classToJsonSchema(BillingAddress).properties!;
    expect(properties.street.description).toBe('Street and number');
    expect(properties.company.description).toBe('Company name for the invoice');
  });

  it.each([[''], [undefined], [42]])('throws ToolDefinitionError for the text %j', (text) => {
    expect(() => Description(text as string)).toThrow(ToolDefinitionError);
    expect(() => Description(text as string)).toThrow(
      "@Description() needs a non-empty text, e.g. @Description('City to search in').",
    );
  });

  it('throws ToolDefinitionError on a symbol-named property', () => {
    const apply = () => Description('x')(Address.prototype, Symbol('street'));
    expect(apply).toThrow(ToolDefinitionError);
    expect(apply).toThrow('@Description() cannot describe a symbol-named property.');
  });
});
