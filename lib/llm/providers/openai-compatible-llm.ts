import { ToolInputError } from '../../errors/tool-input-error';
import { OpenAIChatLLM } from './openai-chat-llm';
import type { OpenAIChatLLMOptions } from './openai-chat-llm';

/** Options of {@link OpenAICompatibleLLM}. */
export interface OpenAICompatibleLLMOptions extends Omit<OpenAIChatLLMOptions, 'baseUrl'> {
  /** The server's OpenAI-style base, e.g. `http://127.0.0.1:11434/v1` (Ollama), `http://127.0.0.1:8000/v1` (vLLM). */
  baseUrl: string;
  /** Provider id for errors and telemetry (default `openai-compatible`; e.g. `ollama`, `vllm`, `llama.cpp`). */
  provider?: string;
  /** Environment variables to read a key from, when the server needs one (default: none, no key sent). */
  apiKeyEnv?: readonly string[];
}

/**
 * A Chat Completions server that is not OpenAI: Ollama, vLLM, llama.cpp, LM Studio. Tools are declared
 * non-strict by default (most servers ignore or reject `strict`); arguments are validated locally.
 */
export class OpenAICompatibleLLM extends OpenAIChatLLM {
  /** @throws ToolInputError when `baseUrl` is missing. */
  constructor(options: OpenAICompatibleLLMOptions) {
    if (typeof options?.baseUrl !== 'string' || options.baseUrl === '') {
      throw new ToolInputError(
        'OpenAICompatibleLLM needs { baseUrl }, e.g. http://127.0.0.1:11434/v1 for Ollama.',
      );
    }
    super(options, {
      provider: options.provider ?? 'openai-compatible',
      keyVariables: options.apiKeyEnv ?? [],
      keyRequired: false,
      defaultStrict: false,
    });
  }
}
