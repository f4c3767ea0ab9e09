import type { JsonSchema } from '../../tools/json-schema';
import { FETCH_URL_LIMITS } from './fetch-url-limits';

/** Builds the input JSON Schema of `fetch_url` (a fresh object per tool). */
export function buildFetchUrlInputSchema(): JsonSchema {
  return {
    type: 'object',
    properties: {
      url: {
        type: 'string',
        minLength: 1,
        maxLength: FETCH_URL_LIMITS.maxUrlLength,
        description: `A public http:// or https:// URL (at most ${FETCH_URL_LIMITS.maxUrlLength} characters, default ports only, no credentials).`,
      },
      max_chars: {
        type: 'integer',
        minimum: FETCH_URL_LIMITS.minChars,
        maximum: FETCH_URL_LIMITS.maxChars,
        default: FETCH_URL_LIMITS.defaultChars,
        description:
          'The most characters of readable text to return; longer text is cut and marked truncated.',
      },
    },
    required: ['url'],
    additionalProperties: false,
  };
}

/** Builds the output JSON Schema of `fetch_url`: a closed object with all seven fields required. */
export function buildFetchUrlOutputSchema(): JsonSchema {
  return {
    type: 'object',
    properties: {
      url: { type: 'string', format: 'uri', description: 'The final URL after redirects, without fragment.' },
      status: { type: 'integer', minimum: 200, maximum: 299 },
      content_type: { type: 'string', description: 'The media type, lower-case, without parameters.' },
      title: { type: 'string', maxLength: FETCH_URL_LIMITS.maxTitleLength },
      text: { type: 'string', maxLength: FETCH_URL_LIMITS.maxChars },
      truncated: { type: 'boolean', description: 'Whether the readable text was longer than max_chars.' },
      untrusted_content: { type: 'boolean', const: true },
    },
    required: ['url', 'status', 'content_type', 'title', 'text', 'truncated', 'untrusted_content'],
    additionalProperties: false,
  };
}
