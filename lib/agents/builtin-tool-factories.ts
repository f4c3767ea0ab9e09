import type { BaseTool } from '../tools/base-tool';
import { calculator } from '../builtins/calculator/calculator';
import { currentDatetime } from '../builtins/datetime/current-datetime';
import type { CurrentDatetimeOptions } from '../builtins/datetime/current-datetime';
import { fetchUrl } from '../builtins/fetch-url/fetch-url';
import type { FetchUrlOptions } from '../builtins/fetch-url/fetch-url';
import { webSearch } from '../builtins/web-search/web-search';
import type { WebSearchOptions } from '../builtins/web-search/web-search';

/** Builds a built-in tool from its serialized JSON options. */
export type BuiltinToolFactory = (options?: Record<string, unknown>) => BaseTool;

/**
 * The built-in tools an agent can restore, by stable id (the id in a tool's `metadata.builtin`). Extend
 * or replace entries through `overrides.builtinFactories` when restoring.
 */
export const DEFAULT_BUILTIN_TOOL_FACTORIES: Readonly<Record<string, BuiltinToolFactory>> = Object.freeze({
  calculator: () => calculator(),
  current_datetime: (options?: Record<string, unknown>) =>
    currentDatetime(options as CurrentDatetimeOptions | undefined),
  fetch_url: (options?: Record<string, unknown>) => fetchUrl(options as FetchUrlOptions | undefined),
  web_search: (options?: Record<string, unknown>) => webSearch(options as WebSearchOptions | undefined),
});
