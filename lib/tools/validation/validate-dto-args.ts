import { validateSync } from 'class-validator';
import type { ValidationError } from 'class-validator';
import { ToolValidationError } from '../../errors/tool-validation-error';
import type { ValidationIssue } from '../../errors/tool-validation-error';
import { getDtoModel } from '../schema/dto-model';
import type { DtoModel } from '../schema/dto-model';
import { isPlainRecord, setOwn } from './copy-json-value';
import { getDtoSchemaCoverage, needsClassValidatorFor } from './dto-schema-coverage';
import { joinPath } from './validation-state';

/** Which DTO classes to rebuild from validated arguments. */
export interface DtoBinding {
  /** The DTO class that is the whole argument object (an unnamed `@Param()`). */
  whole?: Function;
  /** DTO classes of single properties (named `@Param('booking')` typed by a DTO). */
  properties?: Readonly<Record<string, Function>>;
  /**
   * Which of these DTOs the input schema holds exactly as `classToJsonSchema` derived them (set by
   * `scanTools`): there the schema already enforced every constraint it can express, and class-validator
   * runs only for the rest. Without it, class-validator checks every DTO on every call.
   */
  derived?: { readonly whole?: boolean; readonly properties?: readonly string[] };
}

/** Options of {@link validateDtoArgs}. */
export interface ValidateDtoArgsOptions {
  /**
   * `'auto'` (default): skip class-validator for DTOs whose derived schema expresses every constraint;
   * `'always'`: run it on every DTO (the reference the fast path is checked against).
   */
  classValidator?: 'auto' | 'always';
}

/**
 * Rebuilds DTO instances from schema-validated arguments and runs class-validator on them (custom
 * validators included). A DTO whose input schema was derived from it and expresses every one of its
 * constraints (see {@link getDtoSchemaCoverage}) is only rebuilt: the schema already said what
 * class-validator would.
 *
 * @throws ToolValidationError listing every class-validator failure with its path.
 */
export function validateDtoArgs(
  args: Record<string, unknown>,
  binding: DtoBinding,
  toolName?: string,
  options: ValidateDtoArgsOptions = {},
): Record<string, unknown> {
  const issues: ValidationIssue[] = [];
  const always = options.classValidator === 'always';
  let result: Record<string, unknown>;
  if (binding.whole) {
    result = instantiateDto(getDtoModel(binding.whole), args);
    if (
      always ||
      !binding.derived?.whole ||
      needsClassValidatorFor(getDtoSchemaCoverage(binding.whole), args)
    )
      collectIssues(validateSync(result, VALIDATE_OPTIONS), '', issues);
  } else {
    result = { ...args };
    for (const [name, dtoClass] of Object.entries(binding.properties ?? {})) {
      const value = args[name];
      const check =
        always ||
        binding.derived?.properties?.includes(name) !== true ||
        needsClassValidatorFor(getDtoSchemaCoverage(dtoClass), value);
      if (Array.isArray(value)) {
        // `@Param(name, { type: [Dto] })`: each element is one DTO.
        result[name] = value.map((item, index) => {
          if (!isPlainRecord(item)) return item;
          const instance = instantiateDto(getDtoModel(dtoClass), item);
          if (check)
            collectIssues(validateSync(instance, VALIDATE_OPTIONS), joinPath(name, String(index)), issues);
          return instance;
        });
        continue;
      }
      if (!isPlainRecord(value)) continue;
      const instance = instantiateDto(getDtoModel(dtoClass), value);
      if (check) collectIssues(validateSync(instance, VALIDATE_OPTIONS), name, issues);
      result[name] = instance;
    }
  }
  if (issues.length > 0) throw new ToolValidationError({ toolName, issues });
  return result;
}

const VALIDATE_OPTIONS = {
  forbidUnknownValues: false,
  validationError: { target: false, value: false },
} as const;

/** Builds an instance of a DTO class (and its nested DTOs) from a plain validated object. */
export function instantiateDto(model: DtoModel, plain: Record<string, unknown>): Record<string, unknown> {
  let instance: Record<string, unknown>;
  try {
    instance = new (model.target as new () => Record<string, unknown>)();
  } catch {
    instance = Object.create(model.target.prototype) as Record<string, unknown>;
  }
  for (const key of Object.keys(plain)) {
    let value = plain[key];
    const nested = model.nested.get(key);
    if (nested) {
      const build = (item: unknown): unknown =>
        isPlainRecord(item) ? instantiateDto(nested.model(), item) : item;
      value = Array.isArray(value) ? value.map(build) : build(value);
    } else if (model.dates.has(key) && typeof value === 'string') {
      value = new Date(value);
    }
    setOwn(instance, key, value);
  }
  return instance;
}

function collectIssues(errors: ValidationError[], path: string, issues: ValidationIssue[]): void {
  for (const error of errors) {
    const errorPath = joinPath(path, error.property);
    for (const message of Object.values(error.constraints ?? {})) issues.push({ path: errorPath, message });
    if (error.children?.length) collectIssues(error.children, errorPath, issues);
  }
}
