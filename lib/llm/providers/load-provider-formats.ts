import { lazyRequire } from '../../runtime/lazy-require';

// A provider's wire format and HTTP layer load with its first call, not with `import 'protolink'`.

/** The Chat Completions body and response reader. */
export const loadOpenAIChatFormat = lazyRequire<typeof import('./openai-chat-format')>(
  './openai-chat-format',
  __dirname,
);

/** The Responses API body and response reader. */
export const loadOpenAIResponsesFormat = lazyRequire<typeof import('./openai-responses-format')>(
  './openai-responses-format',
  __dirname,
);

/** The Anthropic Messages body and response reader. */
export const loadAnthropicMessagesFormat = lazyRequire<typeof import('./anthropic-messages-format')>(
  './anthropic-messages-format',
  __dirname,
);

/** The Gemini contents converter and response reader. */
export const loadGeminiContentFormat = lazyRequire<typeof import('./gemini-content-format')>(
  './gemini-content-format',
  __dirname,
);

/** Message helpers shared by the formats (`joinSystemText`). */
export const loadProviderMessageParts = lazyRequire<typeof import('./provider-message-parts')>(
  './provider-message-parts',
  __dirname,
);

/** The HTTP call every built-in provider makes. */
export const loadPostModelCall = lazyRequire<typeof import('./post-model-call')>(
  './post-model-call',
  __dirname,
);

/** The error translation of the `from*` client adapters. */
export const loadClientCallError = lazyRequire<typeof import('../clients/to-client-call-error')>(
  '../clients/to-client-call-error',
  __dirname,
);
