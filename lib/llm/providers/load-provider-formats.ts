import { lazyRequire } from '../../runtime/lazy-require';

// A provider's wire format and HTTP layer load with its first call, not with `import 'protolink'`.

/** The Chat Completions body and response reader. */
export const loadOpenAIChatFormat = lazyRequire(
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (): typeof import('./openai-chat-format') => require('./openai-chat-format'),
);

/** The Responses API body and response reader. */
export const loadOpenAIResponsesFormat = lazyRequire(
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (): typeof import('./openai-responses-format') => require('./openai-responses-format'),
);

/** The Anthropic Messages body and response reader. */
export const loadAnthropicMessagesFormat = lazyRequire(
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (): typeof import('./anthropic-messages-format') => require('./anthropic-messages-format'),
);

/** The Gemini contents converter and response reader. */
export const loadGeminiContentFormat = lazyRequire(
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (): typeof import('./gemini-content-format') => require('./gemini-content-format'),
);

/** Message helpers shared by the formats (`joinSystemText`). */
export const loadProviderMessageParts = lazyRequire(
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (): typeof import('./provider-message-parts') => require('./provider-message-parts'),
);

/** The HTTP call every built-in provider makes. */
export const loadPostModelCall = lazyRequire(
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (): typeof import('./post-model-call') => require('./post-model-call'),
);

/** The error translation of the `from*` client adapters. */
export const loadClientCallError = lazyRequire(
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (): typeof import('../clients/to-client-call-error') => require('../clients/to-client-call-error'),
);
