import type { OpenAIChatCompletionBody } from '../providers/openai-chat-format';
import type { OpenAIResponsesBody } from '../providers/openai-responses-format';

/** The per-request options Protolink passes to an official client (the run's signal). */
export interface ClientRequestOptions {
  /** Aborts the request when the run is canceled. */
  signal?: AbortSignal;
}

/**
 * The part of an `openai` client (`new OpenAI()`, `new AzureOpenAI()`) that {@link fromOpenAI} calls.
 * Declared here so that `protolink` never imports the `openai` package; a real client is assignable as is.
 */
export interface OpenAIClient {
  /** Chat Completions. */
  readonly chat: {
    readonly completions: {
      /** Creates one non-streaming chat completion. */
      create(body: OpenAIChatCompletionBody, options?: ClientRequestOptions): PromiseLike<unknown>;
    };
  };
  /** The Responses API. */
  readonly responses: {
    /** Creates one non-streaming response. */
    create(body: OpenAIResponsesBody, options?: ClientRequestOptions): PromiseLike<unknown>;
  };
}
