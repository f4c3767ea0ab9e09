import { validateSync } from 'class-validator';
import type { ValidationError } from 'class-validator';
import { ToolValidationError } from '../../errors/tool-validation-error';
import type { ValidationIssue } from '../../errors/tool-validation-error';
import { getDtoModel } from '../schema/dto-model';
import type { DtoModel } from '../schema/dto-model';
import { isPlainRecord, setOwn } from './copy-json-value';
import { getDtoSchemaCoverage, needsClassValidatorFor } from './dto-schema-coverage';
import { prototypeIsClean } from './try-copy-json';
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
    for (const { name, dtoClass, derived } of propertyPlan(binding)) {
      const value = args[name];
      const check = always || !derived || needsClassValidatorFor(getDtoSchemaCoverage(dtoClass), value);
      if (Array.isArray(value)) {
        // `@Param(name, { type: [Dto] })`: each element is one DTO.
        const model = getDtoModel(dtoClass);
        result[name] = value.map((item, index) => {
          if (!isPlainRecord(item)) return item;
          const instance = instantiateDto(model, item);
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

/** One DTO-typed property of a binding: its name, class, and whether its schema was derived from the class. */
interface DtoPropertyPlan {
  readonly name: string;
  readonly dtoClass: Function;
  readonly derived: boolean;
}

const plans = new WeakMap<DtoBinding, readonly DtoPropertyPlan[]>();

/** The binding's DTO properties, read once per binding (bindings are built at registration, never changed). */
function propertyPlan(binding: DtoBinding): readonly DtoPropertyPlan[] {
  let plan = plans.get(binding);
  if (!plan) {
    plan = Object.entries(binding.properties ?? {}).map(([name, dtoClass]) => ({
      name,
      dtoClass,
      derived: binding.derived?.properties?.includes(name) === true,
    }));
    plans.set(binding, plan);
  }
  return plan;
}

const VALIDATE_OPTIONS = {
  forbidUnknownValues: false,
  validationError: { target: false, value: false },
} as const;

/** Builds an instance of a DTO class (and its nested DTOs) from a plain validated object. */
export function instantiateDto(model: DtoModel, plain: Record<string, unknown>): Record<string, unknown> {
  const instance = construct(model.target);
  const converts = model.nested.size > 0 || model.dates.size > 0;
  // for...in lists only own keys of a plain object while Object.prototype has no enumerable property.
  if (Object.getPrototypeOf(plain) === Object.prototype && prototypeIsClean()) {
    if (converts) {
      for (const key in plain) assignProperty(instance, key, convert(model, key, plain[key]));
    } else {
      for (const key in plain) assignProperty(instance, key, plain[key]);
    }
  } else {
    for (const key of Object.keys(plain))
      assignProperty(instance, key, converts ? convert(model, key, plain[key]) : plain[key]);
  }
  return instance;
}

/** A new instance of a DTO class; one whose constructor needs arguments (and throws) gets its prototype only. */
function construct(target: Function): Record<string, unknown> {
  try {
    return new (target as new () => Record<string, unknown>)();
  } catch {
    return Object.create(target.prototype) as Record<string, unknown>;
  }
}

/** A property's value on the instance: nested DTOs rebuilt, ISO strings of `Date` properties parsed. */
function convert(model: DtoModel, key: string, value: unknown): unknown {
  const nested = model.nested.get(key);
  if (nested) {
    if (!Array.isArray(value)) return isPlainRecord(value) ? instantiateDto(nested.model(), value) : value;
    const items = new Array<unknown>(value.length);
    for (let index = 0; index < value.length; index += 1) {
      const item: unknown = value[index];
      items[index] = isPlainRecord(item) ? instantiateDto(nested.model(), item) : item;
    }
    return items;
  }
  return model.dates.has(key) && typeof value === 'string' ? new Date(value) : value;
}

/** Sets an own data property (setters of the class run, as with an assignment), even for `__proto__`. */
function assignProperty(instance: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') setOwn(instance, key, value);
  else instance[key] = value;
}

function collectIssues(errors: ValidationError[], path: string, issues: ValidationIssue[]): void {
  for (const error of errors) {
    const errorPath = joinPath(path, error.property);
    for (const message of Object.values(error.constraints ?? {})) issues.push({ path: errorPath, message });
    if (error.children?.length) collectIssues(error.children, errorPath, issues);
  }
}
