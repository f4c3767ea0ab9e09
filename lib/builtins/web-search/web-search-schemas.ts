import type { JsonSchema } from '../../tools/json-schema';
import { WEB_SEARCH_LIMITS } from './web-search-limits';

/** The engines `web_search` accepts, in advertised order. */
export const WEB_SEARCH_ENGINES = Object.freeze(['brave', 'duckduckgo', 'wikipedia'] as const);

/** The freshness values `web_search` accepts, in advertised order. */
export const WEB_SEARCH_FRESHNESS = Object.freeze(['any', 'day', 'week', 'month', 'year'] as const);

/** Builds the input JSON Schema of `web_search` (a fresh object per tool). */
export function buildWebSearchInputSchema(): JsonSchema {
  return {
    type: 'object',
    properties: {
      // No maxLength: the limit counts the trimmed text, so a padded query of 400 characters is valid. The
      // tool checks the trimmed length itself (normalizeSearchArguments) and refuses longer ones.
      query: {
        type: 'string',
        minLength: 1,
        description: `What to search for: 1–${WEB_SEARCH_LIMITS.maxQueryLength} characters after trimming, at most ${WEB_SEARCH_LIMITS.maxQueryWords} words.`,
      },
      max_results: {
        type: 'integer',
        minimum: WEB_SEARCH_LIMITS.minResults,
        maximum: WEB_SEARCH_LIMITS.maxResults,
        default: WEB_SEARCH_LIMITS.defaultResults,
        description: 'How many results to return.',
      },
      freshness: {
        type: 'string',
        enum: [...WEB_SEARCH_FRESHNESS],
        default: 'any',
        description:
          "Only results from the last day, week, month or year; 'any' for no filter (wikipedia supports only 'any').",
      },
      engine: {
        type: 'string',
        enum: [...WEB_SEARCH_ENGINES],
        default: 'brave',
        description:
          'brave (needs BRAVE_SEARCH_API_KEY), duckduckgo (keyless, best effort) or wikipedia (keyless, English Wikipedia).',
      },
    },
    required: ['query'],
    additionalProperties: false,
  };
}

/** Builds the output JSON Schema of `web_search`: a closed object with closed result items. */
export function buildWebSearchOutputSchema(): JsonSchema {
  return {
    type: 'object',
    properties: {
      query: { type: 'string' },
      provider: { type: 'string', enum: [...WEB_SEARCH_ENGINES] },
      results: {
        type: 'array',
        maxItems: WEB_SEARCH_LIMITS.maxResults,
        items: {
          type: 'object',
          properties: {
            title: { type: 'string', minLength: 1, maxLength: WEB_SEARCH_LIMITS.maxTitleLength },
            url: { type: 'string', format: 'uri', maxLength: WEB_SEARCH_LIMITS.maxResultUrlLength },
            snippet: { type: 'string', maxLength: WEB_SEARCH_LIMITS.maxSnippetLength },
            sponsored: { type: 'boolean' },
            age: { type: 'string', maxLength: WEB_SEARCH_LIMITS.maxAgeLength },
            published_at: { type: 'string', maxLength: WEB_SEARCH_LIMITS.maxAgeLength },
          },
          required: ['title', 'url', 'snippet', 'sponsored'],
          additionalProperties: false,
        },
      },
      more_results_available: { type: 'boolean' },
      untrusted_content: { type: 'boolean', const: true },
    },
    required: ['query', 'provider', 'results', 'more_results_available', 'untrusted_content'],
    additionalProperties: false,
  };
}
