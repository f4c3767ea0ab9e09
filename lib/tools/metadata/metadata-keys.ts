/** Where a class's `@Tool` method records live (a Map keyed by method name, own to each class). */
export const TOOL_METHODS_KEY = Symbol.for('protolink:tool-methods');
/** Where a class's `@Param`/`@Context` records live (a Map from method name to records). */
export const TOOL_PARAMS_KEY = Symbol.for('protolink:tool-params');
/** Where a class's `@Toolset` defaults live. */
export const TOOLSET_KEY = Symbol.for('protolink:toolset');
/** Where a DTO class's `@Description` texts live (a Map keyed by property name). */
export const PROPERTY_DESCRIPTIONS_KEY = Symbol.for('protolink:property-descriptions');
/** Where a DTO class's `@PropertyType` declarations live (a Map keyed by property name). */
export const PROPERTY_TYPES_KEY = Symbol.for('protolink:property-types');
/**
 * Where a class's `@Resource`/`@ResourceTemplate`/`@Prompt` method records live (a Map keyed by method name,
 * own to each class): the catalog rooms (`lib/resources/`, `lib/prompts/`) share the `@Param` records.
 */
export const CATALOG_METHODS_KEY = Symbol.for('protolink:catalog-methods');
