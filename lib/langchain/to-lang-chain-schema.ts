import type { ObjectJsonSchema } from '../llm/schema/lower-json-schema';

/** The schema a bridged LangChain tool carries: LangChain validates against it, a model is shown the tool's own. */
export interface LangChainToolSchema {
  /** What LangChain's own validator checks: any object. */
  readonly type: 'object';
  /** Standard JSON Schema: how LangChain (and its chat models) get the JSON Schema shown to the model. */
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: 'protolink';
    readonly jsonSchema: {
      readonly input: () => Record<string, unknown>;
      readonly output: () => Record<string, unknown>;
    };
  };
}

/**
 * Wraps a tool's JSON Schema so LangChain accepts any object-shaped input and hands it on unvalidated
 * (Protolink validates and coerces it, and reports every problem), while `toJsonSchema()` and so every
 * chat model's `bindTools()` still show the model the tool's full schema.
 */
export function toLangChainSchema(schema: ObjectJsonSchema): LangChainToolSchema {
  const shown = (): Record<string, unknown> => structuredClone(schema) as Record<string, unknown>;
  return {
    type: 'object',
    '~standard': { version: 1, vendor: 'protolink', jsonSchema: { input: shown, output: shown } },
  };
}
