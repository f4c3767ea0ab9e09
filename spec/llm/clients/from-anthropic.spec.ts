import Anthropic from '@anthropic-ai/sdk';
import { Agent } from '../../../lib/agents/agent';
import { ToolCancelledError } from '../../../lib/errors/tool-cancelled-error';
import { ToolInputError } from '../../../lib/errors/tool-input-error';
import { ToolRuntimeError } from '../../../lib/errors/tool-runtime-error';
import type { AnthropicClient } from '../../../lib/llm/clients/anthropic-client';
import { fromAnthropic } from '../../../lib/llm/clients/from-anthropic';
import { NativeTool } from '../../../lib/tools/native-tool';
import { startProviderServer } from '../../fixtures/llm/provider-test-server';
import type { ProviderTestServer } from '../../fixtures/llm/provider-test-server';
import { readLlmFixture } from '../../fixtures/llm/read-llm-fixture';

const KEY = 'sk-ant-client-0123456789abcdef';
/** The SDK waits `retry-after-ms` before its own retry; a short wait keeps the suite quick. */
const RETRY_SOON = { 'retry-after-ms': '5' };

/** Derived from the recorded message: the content replaced by a final text block. */
function finalAnswer(text: string) {
  const body = readLlmFixture('anthropic/messages.tool-use.json');
  body.content = [{ type: 'text', text }];
  body.stop_reason = 'end_turn';
  return body;
}

const finalResult = () =>
  new NativeTool({
    name: 'final_result',
    description: 'The final answer',
    inputSchema: {
      type: 'object',
      properties: { city: { type: 'string' }, country: { type: 'string' } },
      required: ['city', 'country'],
    },
    func: (args) => ({ saved: `${String(args.city)}, ${String(args.country)}` }),
  });

describe('fromAnthropic', () => {
  let server: ProviderTestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const client = (maxRetries?: number) =>
    new Anthropic({
      apiKey: KEY,
      baseURL: server!.baseUrl,
      ...(maxRetries === undefined ? {} : { maxRetries }),
    });

  describe('generate', () => {
    it('runs agent.infer over the recorded tool_use, after the client retried a 503 itself', async () => {
      server = await startProviderServer([
        {
          status: 503,
          headers: RETRY_SOON,
          body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
        },
        { body: readLlmFixture('anthropic/messages.tool-use.json') },
        { body: finalAnswer('Saved Mexico City.') },
      ]);
      const agent = new Agent({
        card: { name: 'geo', description: 'Geography', url: 'runtime://geo' },
        tools: [finalResult()],
      });
      const llm = fromAnthropic(client(), { model: 'claude-sonnet-4-5', maxTokens: 1024 });
      const result = await agent.infer('Where is the biggest city of Mexico?', {
        llm,
        system: 'Use the tools.',
      });

      expect(llm).toMatchObject({ provider: 'anthropic', model: 'claude-sonnet-4-5' });
      expect(result.text).toBe('Saved Mexico City.');
      expect(result.toolCalls).toEqual([
        expect.objectContaining({
          id: 'toolu_01LZABsgreMefH2Go8D5PQbW',
          name: 'final_result',
          status: 'ok',
          result: { saved: 'Mexico City, Mexico' },
        }),
      ]);
      expect(result.usage).toMatchObject({ inputTokens: 994, outputTokens: 112, llmCalls: 2 });
      expect(server.requests).toHaveLength(3);
      expect(server.requests[1].body).toEqual(server.requests[0].body);
      for (const request of server.requests) {
        expect(request.url).toBe('/v1/messages');
        expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
      }
      expect(server.requests[0].body).toEqual({
        model: 'claude-sonnet-4-5',
        max_tokens: 1024,
        system: 'Use the tools.',
        messages: [{ role: 'user', content: 'Where is the biggest city of Mexico?' }],
        tools: [
          {
            name: 'final_result',
            description: 'The final answer',
            input_schema: expect.objectContaining({ type: 'object', required: ['city', 'country'] }),
          },
        ],
      });
      expect(server.requests[2].body.messages.slice(1)).toEqual([
        {
          role: 'assistant',
          content: [
            {
              type: 'tool_use',
              id: 'toolu_01LZABsgreMefH2Go8D5PQbW',
              name: 'final_result',
              input: { city: 'Mexico City', country: 'Mexico' },
            },
          ],
        },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 'toolu_01LZABsgreMefH2Go8D5PQbW',
              content: '{"saved":"Mexico City, Mexico"}',
            },
          ],
        },
      ]);
    });

    it('reads the recorded tool_use without arguments', async () => {
      server = await startProviderServer([
        { body: readLlmFixture('anthropic/messages.tool-use.no-args.json') },
      ]);
      const response = await fromAnthropic(client(), { model: 'claude-3-opus-20240229' }).generate({
        messages: [{ role: 'user', content: 'Update the issue list' }],
        tools: [],
      });

      expect(response.toolCalls).toEqual([
        { id: expect.stringMatching(/^toolu_/), name: 'updateIssueList', arguments: {} },
      ]);
      expect(response.text).toContain('<thinking>');
      expect(response.finishReason).toBe('tool_use');
      expect(server.requests[0].body).toMatchObject({ max_tokens: 4096 });
      expect(server.requests[0].body.tools).toBeUndefined();
    });
  });

  describe('errors', () => {
    it('turns an HTTP error into a ToolRuntimeError naming Anthropic, without the key', async () => {
      server = await startProviderServer([
        {
          status: 401,
          body: {
            type: 'error',
            error: { type: 'authentication_error', message: `invalid x-api-key ${KEY}` },
          },
        },
      ]);
      const error = await fromAnthropic(client(0), { model: 'claude-sonnet-4-5' })
        .generate({ messages: [{ role: 'user', content: 'Hi' }], tools: [] })
        .catch((caught: unknown) => caught);

      expect(error).toBeInstanceOf(ToolRuntimeError);
      expect(error).toMatchObject({ provider: 'anthropic', status: 401, retryable: false });
      expect((error as Error).message).toMatch(
        /^Anthropic \(through the @anthropic-ai\/sdk client\) answered HTTP 401: .*authentication_error.*Check the API key/,
      );
      expect((error as Error).message).not.toContain(KEY);
    });

    it('rejects with ToolCancelledError when the run is canceled during the request', async () => {
      server = await startProviderServer([{ body: finalAnswer('late'), delayMs: 10_000 }]);
      const controller = new AbortController();
      const pending = fromAnthropic(client(0), { model: 'claude-sonnet-4-5' }).generate({
        messages: [{ role: 'user', content: 'Hi' }],
        tools: [],
        signal: controller.signal,
      });
      while (server.requests.length === 0) await new Promise((resolve) => setImmediate(resolve));
      controller.abort();

      await expect(pending).rejects.toThrow(new ToolCancelledError('The Anthropic request was canceled.'));
      await expect(pending).rejects.toBeInstanceOf(ToolCancelledError);
    });

    it('checks its options when created', () => {
      const anthropic = new Anthropic({ apiKey: KEY, baseURL: 'http://127.0.0.1:9' });
      expect(() => fromAnthropic(anthropic, { model: ' ' })).toThrow(ToolInputError);
      expect(() => fromAnthropic({} as AnthropicClient, { model: 'claude-sonnet-4-5' })).toThrow(
        /fromAnthropic needs an @anthropic-ai\/sdk client with messages\.create\(\)/,
      );
    });
  });
});
