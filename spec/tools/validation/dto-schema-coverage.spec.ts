import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  ArrayUnique,
  IsArray,
  IsDate,
  IsEmail,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  Min,
  MinLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { ToolValidationError } from '../../../lib/errors/tool-validation-error';
import { Param } from '../../../lib/tools/decorators/param.decorator';
import { Tool } from '../../../lib/tools/decorators/tool.decorator';
import { scanTools } from '../../../lib/tools/registry/scan-tools';
import {
  getDtoSchemaCoverage,
  needsClassValidatorFor,
} from '../../../lib/tools/validation/dto-schema-coverage';
import { GeoPoint, SearchQuery, TreeNode } from '../../fixtures/dto/booking.dto';

class Grouped {
  @IsInt({ groups: ['admin'] }) level!: number;
}
class Always {
  @IsInt({ always: true }) level!: number;
}
class Conditional {
  @ValidateIf((object: Conditional) => object.level !== 0) @IsInt() level!: number;
}
class PerConstraintCondition {
  @IsInt({ validateIf: () => true } as never) level!: number;
}
class WithFormat {
  @IsEmail() email!: string;
}
class WithDate {
  @IsDate() @Type(() => Date) at!: Date;
}
class CaseInsensitive {
  @Matches(/^[a-z]+$/i) code!: string;
}
class UnicodeClass {
  @Matches('^\\p{L}+$') word!: string;
}
class Conflicting {
  @IsInt() @IsString() value!: string;
}
class UntypedMinimum {
  @IsOptional() @Min(1) amount!: number | string;
}
class DecimalPlaces {
  @IsNumber({ maxDecimalPlaces: 2 }) price!: number;
}
class UniqueById {
  @IsArray() @ArrayUnique((item: { id: number }) => item.id) items!: { id: number }[];
}
class NonJsonInitializer {
  @IsOptional() @IsString() label: string = String(Symbol.iterator.description);
  @IsOptional() @IsInt() created: number | Date = new Date(0);
}
class HoldsIncomplete {
  @ValidateNested() @Type(() => WithFormat) inner!: WithFormat;
}
class Plain {
  @IsString() @MinLength(2) name!: string;
  @ValidateNested({ each: true }) @Type(() => GeoPoint) @IsArray() points!: GeoPoint[];
}

describe('getDtoSchemaCoverage', () => {
  it('covers DTOs whose constraints all have an exact schema form, recursive ones included', () => {
    expect(getDtoSchemaCoverage(Plain)).toEqual({ complete: true, reason: undefined, checksStrings: true });
    expect(getDtoSchemaCoverage(GeoPoint)).toEqual({
      complete: true,
      reason: undefined,
      checksStrings: false,
    });
    expect(getDtoSchemaCoverage(TreeNode).complete).toBe(true);
    expect(getDtoSchemaCoverage(SearchQuery).complete).toBe(true);
    expect(getDtoSchemaCoverage(Plain)).toBe(getDtoSchemaCoverage(Plain));
  });

  it.each([
    [Grouped, 'Grouped.level: @isInt has no exact schema form'],
    [Always, 'Always.level: @isInt has no exact schema form'],
    [Conditional, 'Conditional.level: @conditionalValidation has no exact schema form'],
    [PerConstraintCondition, 'PerConstraintCondition.level: @isInt has no exact schema form'],
    [WithFormat, 'WithFormat.email: @isEmail has no exact schema form'],
    [WithDate, 'WithDate.at: @isDate has no exact schema form'],
    [CaseInsensitive, 'CaseInsensitive.code: @matches has no exact schema form'],
    [UnicodeClass, 'UnicodeClass.word: @matches has no exact schema form'],
    [Conflicting, 'Conflicting.value: @isString has no exact schema form'],
    [UntypedMinimum, 'UntypedMinimum.amount: @min has no exact schema form'],
    [DecimalPlaces, 'DecimalPlaces.price: @isNumber has no exact schema form'],
    [UniqueById, 'UniqueById.items: @arrayUnique has no exact schema form'],
    [NonJsonInitializer, 'NonJsonInitializer.created has an initializer that is no JSON default'],
    [HoldsIncomplete, 'WithFormat.email: @isEmail has no exact schema form'],
  ])('leaves %p to class-validator and says why', (dto, reason) => {
    expect(getDtoSchemaCoverage(dto)).toMatchObject({ complete: false, reason });
  });
});

describe('needsClassValidatorFor', () => {
  it('sends strings with variation selectors or surrogates to class-validator when lengths or patterns count', () => {
    const coverage = getDtoSchemaCoverage(Plain);
    expect(needsClassValidatorFor(coverage, { name: 'Ada', points: [] })).toBe(false);
    expect(needsClassValidatorFor(coverage, { name: 'a\uFE0F', points: [] })).toBe(true);
    expect(needsClassValidatorFor(coverage, { name: 'ab', points: [{ note: '😀' }] })).toBe(true);
    expect(needsClassValidatorFor(getDtoSchemaCoverage(GeoPoint), { lat: '😀' })).toBe(false);
    expect(needsClassValidatorFor(getDtoSchemaCoverage(WithFormat), { email: 'a@b.c' })).toBe(true);
  });
});

class LooseSchemaTools {
  @Tool({
    name: 'loose',
    description: 'An explicit schema that checks less than the DTO',
    inputSchema: {
      type: 'object',
      properties: { inner: { type: 'object', additionalProperties: true } },
      additionalProperties: false,
    },
  })
  loose(@Param('inner') inner: Plain): unknown {
    return inner;
  }
}

describe('scanTools with a DTO parameter whose schema was not derived', () => {
  it('still runs class-validator, which finds what the schema did not check', () => {
    const [tool] = scanTools(new LooseSchemaTools());
    expect(() => tool.validateArgs({ inner: { name: 'A', points: [] } })).toThrow(ToolValidationError);
    expect(() => tool.validateArgs({ inner: { name: 'A', points: [] } })).toThrow(
      /inner\.name: name must be longer than or equal to 2 characters/,
    );
  });
});
