import type { BaseTool } from '../tools/base-tool';

/** Builds a built-in tool from its serialized JSON options. */
export type BuiltinToolFactory = (options?: Record<string, unknown>) => BaseTool;

/**
 * The built-in tools an agent can restore, by stable id. Extend or replace entries through
 * `overrides.builtinFactories` when restoring.
 */
export const DEFAULT_BUILTIN_TOOL_FACTORIES: Readonly<Record<string, BuiltinToolFactory>> = Object.freeze({});
