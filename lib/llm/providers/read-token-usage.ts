import type { LlmUsage } from '../llm';
import { isRecord, readCount } from './provider-message-parts';

/**
 * Reads a provider's token-usage object into {@link LlmUsage}, given the names of its input and output
 * count fields (a missing or invalid count reads as 0). Returns undefined when the provider sent no usage
 * object.
 */
export function readTokenUsage(
  usage: unknown,
  inputField: string,
  outputField: string,
): LlmUsage | undefined {
  return isRecord(usage)
    ? { inputTokens: readCount(usage[inputField]), outputTokens: readCount(usage[outputField]) }
    : undefined;
}
