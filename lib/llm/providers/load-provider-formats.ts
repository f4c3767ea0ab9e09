import { lazyRequire } from '../../runtime/lazy-require';

// A provider's wire format and HTTP layer load with its first call, not with `import 'protolink'`.

/** The Chat Completions body and response reader. */
export const loadOpenAIChatFormat = lazyRequire((): typeof import('./openai-chat-format') =>
  require('./openai-chat-format'),
);

/** The Responses API body and response reader. */
export const loadOpenAIResponsesFormat = lazyRequire((): typeof import('./openai-responses-format') =>
  require('./openai-responses-format'),
);

/** The Anthropic Messages body and response reader. */
export const loadAnthropicMessagesFormat = lazyRequire((): typeof import('./anthropic-messages-format') =>
  require('./anthropic-messages-format'),
);

/** The Gemini contents converter and response reader. */
export const loadGeminiContentFormat = lazyRequire((): typeof import('./gemini-content-format') =>
  require('./gemini-content-format'),
);

/** Message helpers shared by the formats (`joinSystemText`). */
export const loadProviderMessageParts = lazyRequire((): typeof import('./provider-message-parts') =>
  require('./provider-message-parts'),
);

/** The HTTP call every built-in provider makes. */
export const loadPostModelCall = lazyRequire((): typeof import('./post-model-call') =>
  require('./post-model-call'),
);

/** The error translation of the `from*` client adapters. */
export const loadClientCallError = lazyRequire((): typeof import('../clients/to-client-call-error') =>
  require('../clients/to-client-call-error'),
);
