import type { AnthropicMessagesBody } from '../providers/anthropic-messages-format';
import type { ClientRequestOptions } from './openai-client';

/**
 * The part of an `@anthropic-ai/sdk` client (`new Anthropic()`) that {@link fromAnthropic} calls. Declared
 * here so that `protolink` never imports the SDK; a real client is assignable as is.
 */
export interface AnthropicClient {
  /** The Messages API. */
  readonly messages: {
    /** Creates one non-streaming message. */
    create(body: AnthropicMessagesBody, options?: ClientRequestOptions): PromiseLike<unknown>;
  };
}
