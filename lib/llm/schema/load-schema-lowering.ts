import { lazyRequire } from '../../runtime/lazy-require';

// The lowering code loads with the first export to a model's format, not with `import 'protolink'`.

/** `lowerJsonSchema`, for every target. */
export const loadJsonSchemaLowering = lazyRequire((): typeof import('./lower-json-schema') =>
  require('./lower-json-schema'),
);

/** `lowerOpenAIStrictSchema`, for OpenAI's strict mode. */
export const loadOpenAIStrictLowering = lazyRequire((): typeof import('./lower-openai-strict-schema') =>
  require('./lower-openai-strict-schema'),
);

/** `lowerGeminiSchema`, for Gemini's OpenAPI subset. */
export const loadGeminiLowering = lazyRequire((): typeof import('./lower-gemini-schema') =>
  require('./lower-gemini-schema'),
);
