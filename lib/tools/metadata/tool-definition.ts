import type { ParamOptions, ToolOptions } from './metadata-records';

/** One parameter of a tool method, as built from its decorators and design metadata. */
export type ParamDefinition =
  | {
      readonly kind: 'named';
      readonly index: number;
      readonly name: string;
      readonly options: Readonly<ParamOptions>;
      /** The explicit `type` class, else the emitted `design:paramtypes` entry (`Array` for `[Class]`). */
      readonly designType: Function | undefined;
      /** The element class of an explicit `{ type: [Class] }`. */
      readonly itemType?: Function;
    }
  | {
      readonly kind: 'whole';
      readonly index: number;
      readonly options: Readonly<ParamOptions>;
      readonly designType: Function | undefined;
    }
  | { readonly kind: 'context'; readonly index: number };

/** A tool method, fully built: merged options and ordered parameters. Frozen. */
export interface ToolDefinition {
  /** The class that declared the `@Tool` (a base class when inherited). */
  readonly declaringClass: Function;
  readonly methodName: string;
  /** Options with the `@Toolset` defaults merged in (tags, capabilities, name prefix). */
  readonly options: Readonly<ToolOptions>;
  readonly params: readonly ParamDefinition[];
  /** The emitted `design:returntype`, if any. */
  readonly returnType: Function | undefined;
}
