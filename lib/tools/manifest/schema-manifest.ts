import type { JsonSchema } from '../json-schema';

/** Schemas that compile-time analysis found for one tool method. */
export interface SchemaManifestEntry {
  /** Schema of the whole argument object (an interface-typed unnamed parameter). */
  inputSchema?: JsonSchema;
  /** Schema of the (awaited) return type. */
  outputSchema?: JsonSchema;
  /** Schemas of named parameters, by `@Param` name. */
  parameters?: Record<string, JsonSchema>;
}

/**
 * What `protolink schemas` writes: schemas from TypeScript types that run-time metadata cannot see, keyed
 * by `ClassName.methodName`.
 */
export interface SchemaManifest {
  version: 1;
  tools: Record<string, SchemaManifestEntry>;
}
