import { ToolInputError } from '../../../lib/errors/tool-input-error';
import { OpenAICompatibleLLM } from '../../../lib/llm/providers/openai-compatible-llm';
import { runToolLoop } from '../../../lib/llm/run-tool-loop';
import { NativeTool } from '../../../lib/tools/native-tool';
import { LoopCaller } from '../../fixtures/llm/loop-caller';
import { startProviderServer } from '../../fixtures/llm/provider-test-server';
import type { ProviderTestServer } from '../../fixtures/llm/provider-test-server';
import { readLlmFixture } from '../../fixtures/llm/read-llm-fixture';

/** Derived from the recorded completion (Ollama, vLLM and llama.cpp answer in the same shape). */
function finalAnswer(text: string) {
  const body = readLlmFixture('openai/chat-completion.tool-call.json');
  body.choices[0].message = { role: 'assistant', content: text };
  body.choices[0].finish_reason = 'stop';
  return body;
}

const getCapital = () =>
  new NativeTool({
    name: 'get_capital',
    description: 'Get the capital of a country',
    inputSchema: {
      type: 'object',
      properties: { country: { type: 'string' }, language: { type: 'string' } },
      required: ['country'],
    },
    func: () => 'London',
  });

describe('OpenAICompatibleLLM', () => {
  let server: ProviderTestServer | undefined;
  const saved = process.env.VLLM_API_KEY;
  afterEach(async () => {
    await server?.close();
    server = undefined;
    if (saved === undefined) delete process.env.VLLM_API_KEY;
    else process.env.VLLM_API_KEY = saved;
  });

  describe('generate', () => {
    it('talks to an Ollama-style server without a key and declares tools non-strict', async () => {
      server = await startProviderServer([
        { body: readLlmFixture('openai/chat-completion.tool-call.json') },
        { body: finalAnswer('London.') },
      ]);
      const llm = new OpenAICompatibleLLM({
        model: 'llama3.1',
        baseUrl: `${server.baseUrl}/v1`,
        provider: 'ollama',
      });
      const result = await runToolLoop(new LoopCaller([getCapital()]), 'Capital of England?', { llm });
      expect(result.text).toBe('London.');
      expect(llm.provider).toBe('ollama');
      expect(server.requests[0].url).toBe('/v1/chat/completions');
      expect(server.requests[0].headers.authorization).toBeUndefined();
      expect(server.requests[0].body.tools).toEqual([
        {
          type: 'function',
          function: {
            name: 'get_capital',
            description: 'Get the capital of a country',
            parameters: {
              type: 'object',
              properties: { country: { type: 'string' }, language: { type: 'string' } },
              required: ['country'],
              additionalProperties: false,
              title: 'get_capitalInput',
            },
            strict: false,
          },
        },
      ]);
    });

    it('sends a key read from the named environment variable when the server needs one', async () => {
      server = await startProviderServer([{ body: finalAnswer('ok') }]);
      const llm = new OpenAICompatibleLLM({
        model: 'qwen',
        baseUrl: `${server.baseUrl}/v1/`,
        provider: 'vllm',
        apiKeyEnv: ['VLLM_API_KEY'],
      });
      process.env.VLLM_API_KEY = 'vllm-secret-123456';
      await llm.generate({ messages: [{ role: 'user', content: 'Hi' }], tools: [] });
      expect(server.requests[0].headers.authorization).toBe('Bearer vllm-secret-123456');
    });
  });

  describe('errors', () => {
    it('requires a baseUrl', () => {
      expect(() => new OpenAICompatibleLLM({ model: 'x' } as never)).toThrow(
        new ToolInputError(
          'OpenAICompatibleLLM needs { baseUrl }, e.g. http://127.0.0.1:11434/v1 for Ollama.',
        ),
      );
    });

    it('names the provider in HTTP errors', async () => {
      server = await startProviderServer([
        { status: 404, body: { error: 'model "llama9" not found, try pulling it first' } },
      ]);
      const llm = new OpenAICompatibleLLM({
        model: 'llama9',
        baseUrl: `${server.baseUrl}/v1`,
        provider: 'ollama',
      });
      await expect(
        llm.generate({ messages: [{ role: 'user', content: 'Hi' }], tools: [] }),
      ).rejects.toMatchObject({
        name: 'ToolRuntimeError',
        message: 'Ollama answered HTTP 404: model "llama9" not found, try pulling it first.',
        provider: 'ollama',
        status: 404,
        retryable: false,
      });
    });
  });
});
