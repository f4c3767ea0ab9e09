import { ToolInputError } from '../../errors/tool-input-error';
import { WEB_SEARCH_LIMITS } from './web-search-limits';
import { WEB_SEARCH_ENGINES, WEB_SEARCH_FRESHNESS } from './web-search-schemas';
import { WEB_SEARCH_TOOL_NAME } from './web-search-types';
import type { SearchQuery, WebSearchEngine, WebSearchFreshness } from './web-search-types';

/**
 * Checks the (schema-validated) arguments of one `web_search` call again, trims the query and returns the
 * search to run; nothing here touches the network or the environment.
 *
 * The query's length limit (400 code points) counts the trimmed text, so surrounding whitespace never makes a
 * query too long; the input schema leaves the raw length open for that reason.
 *
 * @throws ToolInputError for an empty or too long query (after trimming), more than 50 words, a result count
 * out of range, an unknown freshness or engine, or a freshness other than `any` for wikipedia.
 */
export function normalizeSearchArguments(args: Record<string, unknown>): SearchQuery {
  const query = normalizeQuery(args.query);
  const maxResults = normalizeMaxResults(args.max_results);
  const freshness = normalizeChoice(
    args.freshness,
    WEB_SEARCH_FRESHNESS,
    'any',
    'freshness',
  ) as WebSearchFreshness;
  const engine = normalizeChoice(args.engine, WEB_SEARCH_ENGINES, 'brave', 'engine') as WebSearchEngine;
  if (engine === 'wikipedia' && freshness !== 'any') {
    throw new ToolInputError(
      `${WEB_SEARCH_TOOL_NAME}: engine='wikipedia' supports only freshness='any' (got '${freshness}'). ` +
        "Drop the freshness filter, or use engine 'brave' or 'duckduckgo' for recent results.",
      { toolName: WEB_SEARCH_TOOL_NAME },
    );
  }
  return { query, maxResults, freshness, engine };
}

function normalizeQuery(raw: unknown): string {
  if (typeof raw !== 'string') {
    throw inputError(`the query must be a string, got ${raw === null ? 'null' : typeof raw}.`);
  }
  const query = raw.trim();
  if (query.length === 0) {
    throw inputError('web search query must not be empty; pass the words to search for.');
  }
  const length = countCodePoints(query);
  if (length > WEB_SEARCH_LIMITS.maxQueryLength) {
    throw inputError(
      `the query has ${length} characters after trimming; it must not exceed ${WEB_SEARCH_LIMITS.maxQueryLength}. Shorten it.`,
    );
  }
  const words = query.split(/\s+/u).length;
  if (words > WEB_SEARCH_LIMITS.maxQueryWords) {
    throw inputError(
      `the query has ${words} words; it must not exceed ${WEB_SEARCH_LIMITS.maxQueryWords} words. Keep the essential terms.`,
    );
  }
  return query;
}

/** Counts code points without building an array: the schema sets no raw maxLength, so the text can be long. */
function countCodePoints(text: string): number {
  let count = 0;
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    const next = text.charCodeAt(index + 1);
    if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) index += 1;
    count += 1;
  }
  return count;
}

function normalizeMaxResults(raw: unknown): number {
  const value = raw === undefined || raw === null ? WEB_SEARCH_LIMITS.defaultResults : raw;
  if (
    typeof value !== 'number' ||
    !Number.isInteger(value) ||
    value < WEB_SEARCH_LIMITS.minResults ||
    value > WEB_SEARCH_LIMITS.maxResults
  ) {
    throw inputError(
      `max_results must be an integer from ${WEB_SEARCH_LIMITS.minResults} to ${WEB_SEARCH_LIMITS.maxResults}, got ${describe(value)}.`,
    );
  }
  return value;
}

function normalizeChoice(raw: unknown, allowed: readonly string[], fallback: string, field: string): string {
  const value = raw === undefined || raw === null ? fallback : raw;
  if (typeof value !== 'string' || !allowed.includes(value)) {
    throw inputError(
      `${field} must be one of ${allowed.map((item) => `'${item}'`).join(', ')}, got ${describe(value)}.`,
    );
  }
  return value;
}

function describe(value: unknown): string {
  if (typeof value === 'string') return `'${value.length > 40 ? `${value.slice(0, 40)}…` : value}'`;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return value === null ? 'null' : typeof value;
}

function inputError(message: string): ToolInputError {
  return new ToolInputError(`${WEB_SEARCH_TOOL_NAME}: ${message}`, { toolName: WEB_SEARCH_TOOL_NAME });
}
