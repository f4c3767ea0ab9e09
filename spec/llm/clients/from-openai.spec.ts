import OpenAI from 'openai';
import { Agent } from '../../../lib/agents/agent';
import { ToolCancelledError } from '../../../lib/errors/tool-cancelled-error';
import { ToolInputError } from '../../../lib/errors/tool-input-error';
import { ToolRuntimeError } from '../../../lib/errors/tool-runtime-error';
import { fromOpenAI } from '../../../lib/llm/clients/from-openai';
import type { OpenAIClient } from '../../../lib/llm/clients/openai-client';
import { runToolLoop } from '../../../lib/llm/run-tool-loop';
import { NativeTool } from '../../../lib/tools/native-tool';
import { LoopCaller } from '../../fixtures/llm/loop-caller';
import { startProviderServer } from '../../fixtures/llm/provider-test-server';
import type { ProviderTestServer } from '../../fixtures/llm/provider-test-server';
import { readLlmFixture } from '../../fixtures/llm/read-llm-fixture';

const KEY = 'sk-test-client-0123456789abcdef';
/** The SDK waits `retry-after-ms` before its own retry; a short wait keeps the suite quick. */
const RETRY_SOON = { 'retry-after-ms': '5' };

/** Derived from the recorded completion: the tool-call message replaced by a final text answer. */
function finalChatAnswer(text: string) {
  const body = readLlmFixture('openai/chat-completion.tool-call.json');
  body.choices[0].message = { role: 'assistant', content: text, refusal: null, annotations: [] };
  body.choices[0].finish_reason = 'stop';
  return body;
}

/** Derived from the recorded response: the function call replaced by a final output message. */
function finalResponsesAnswer(text: string) {
  const body = readLlmFixture('openai/responses.function-call.json');
  body.output = [
    {
      type: 'message',
      id: 'msg_derived',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text, annotations: [] }],
    },
  ];
  return body;
}

const getCapital = () =>
  new NativeTool({
    name: 'get_capital',
    description: 'Get the capital of a country',
    inputSchema: { type: 'object', properties: { country: { type: 'string' } }, required: ['country'] },
    func: (args) => (args.country === 'England' ? 'London' : 'Paris'),
  });

const newAgent = () =>
  new Agent({
    card: { name: 'geo', description: 'Answers geography questions', url: 'runtime://geo' },
    tools: [getCapital()],
  });

describe('fromOpenAI', () => {
  let server: ProviderTestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const client = (options: { maxRetries?: number; baseURL?: string } = {}) =>
    new OpenAI({ apiKey: KEY, baseURL: options.baseURL ?? `${server!.baseUrl}/v1`, ...options });

  describe('chat', () => {
    it('runs agent.infer over the recorded tool call, after the client retried a 503 itself', async () => {
      server = await startProviderServer([
        { status: 503, headers: RETRY_SOON, body: { error: { message: 'The server is overloaded' } } },
        { body: readLlmFixture('openai/chat-completion.tool-call.json') },
        { body: finalChatAnswer('The capital of England is London.') },
      ]);
      const llm = fromOpenAI(client(), { model: 'gpt-4o-mini' });
      const result = await newAgent().infer('What is the capital of England?', { llm, system: 'Be brief.' });

      expect(llm).toMatchObject({ provider: 'openai', model: 'gpt-4o-mini' });
      expect(result.text).toBe('The capital of England is London.');
      expect(result.toolCalls).toEqual([
        expect.objectContaining({ name: 'get_capital', status: 'ok', result: 'London' }),
      ]);
      expect(result.usage.llmCalls).toBe(2);
      expect(server.requests).toHaveLength(3);
      expect(server.requests[1].body).toEqual(server.requests[0].body);
      for (const request of server.requests) {
        expect(request.url).toBe('/v1/chat/completions');
        expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
      }
      expect(server.requests[0].body).toEqual({
        model: 'gpt-4o-mini',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'What is the capital of England?' },
        ],
        tools: [
          {
            type: 'function',
            function: {
              name: 'get_capital',
              description: 'Get the capital of a country',
              parameters: expect.objectContaining({ type: 'object', additionalProperties: false }),
              strict: true,
            },
          },
        ],
      });
      expect(server.requests[2].body.messages.slice(2)).toEqual([
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_SkEQ3ZGSJC8m6AvaIGNuuKdm',
              type: 'function',
              function: { name: 'get_capital', arguments: '{"country":"England"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_SkEQ3ZGSJC8m6AvaIGNuuKdm', content: 'London' },
      ]);
    });

    it('sends the sampling options and declares non-strict tools when asked', async () => {
      server = await startProviderServer([{ body: finalChatAnswer('Hi.') }]);
      const llm = fromOpenAI(client(), { model: 'gpt-4o', strict: false, temperature: 0, maxTokens: 50 });
      const response = await llm.generate({
        messages: [{ role: 'user', content: 'Hi' }],
        tools: [getCapital()],
      });

      expect(response).toEqual({
        text: 'Hi.',
        toolCalls: [],
        usage: { inputTokens: 104, outputTokens: 16 },
        finishReason: 'stop',
      });
      expect(server.requests[0].body).toMatchObject({
        temperature: 0,
        max_completion_tokens: 50,
        tools: [{ function: { strict: false } }],
      });
    });
  });

  describe('responses', () => {
    it('runs the loop over the recorded function call through client.responses.create', async () => {
      server = await startProviderServer([
        { body: readLlmFixture('openai/responses.function-call.json') },
        { body: finalResponsesAnswer('Paris.') },
      ]);
      const llm = fromOpenAI(client(), { model: 'gpt-4o', api: 'responses' });
      const result = await runToolLoop(new LoopCaller([getCapital()]), 'Capital of France?', {
        llm,
        system: 'Use the tools.',
      });

      const recorded = readLlmFixture('openai/responses.function-call.json').output[0];
      expect(result.text).toBe('Paris.');
      expect(result.toolCalls).toEqual([
        expect.objectContaining({ id: recorded.call_id, name: 'get_capital', status: 'ok' }),
      ]);
      expect(result.usage.inputTokens).toBeGreaterThanOrEqual(40);
      expect(server.requests.map((request) => request.url)).toEqual(['/v1/responses', '/v1/responses']);
      expect(server.requests[0].body).toMatchObject({
        model: 'gpt-4o',
        store: false,
        instructions: 'Use the tools.',
        input: [{ role: 'user', content: 'Capital of France?' }],
        tools: [{ type: 'function', name: 'get_capital', strict: true }],
      });
      expect(server.requests[1].body.input.slice(1)).toEqual([
        {
          type: 'function_call',
          call_id: recorded.call_id,
          name: 'get_capital',
          arguments: recorded.arguments,
        },
        { type: 'function_call_output', call_id: recorded.call_id, output: expect.any(String) },
      ]);
    });
  });

  describe('errors', () => {
    it('turns an HTTP error into a ToolRuntimeError naming OpenAI, without the key', async () => {
      server = await startProviderServer([
        { status: 401, body: { error: { message: `Incorrect API key provided: ${KEY}.` } } },
      ]);
      const llm = fromOpenAI(client({ maxRetries: 0 }), { model: 'gpt-4o-mini' });
      const error = await llm
        .generate({ messages: [{ role: 'user', content: 'Hi' }], tools: [] })
        .catch((caught: unknown) => caught);

      expect(error).toBeInstanceOf(ToolRuntimeError);
      expect(error).toMatchObject({ provider: 'openai', status: 401, retryable: false });
      expect((error as Error).message).toContain('OpenAI (through the openai client) answered HTTP 401');
      expect((error as Error).message).toContain('Check the API key');
      expect((error as Error).message).not.toContain(KEY);
      expect(JSON.stringify(error)).not.toContain(KEY);
      expect((error as Error).cause).toBeUndefined();
    });

    it('reports a 503 the client kept getting after its own retries as retryable', async () => {
      const overloaded = { status: 503, headers: RETRY_SOON, body: { error: { message: 'Overloaded' } } };
      server = await startProviderServer([overloaded, overloaded]);
      const llm = fromOpenAI(client({ maxRetries: 1 }), { model: 'gpt-4o-mini' });
      const error = await llm
        .generate({ messages: [{ role: 'user', content: 'Hi' }], tools: [] })
        .catch((caught: unknown) => caught);

      expect(server.requests).toHaveLength(2);
      expect(error).toBeInstanceOf(ToolRuntimeError);
      expect(error).toMatchObject({ provider: 'openai', status: 503, retryable: true });
      expect((error as Error).message).toMatch(/HTTP 503: .*Overloaded.*gave up after its own retries/);
    });

    it('turns a connection failure into a ToolRuntimeError without a status', async () => {
      server = await startProviderServer([]);
      const closedUrl = `${server.baseUrl}/v1`;
      await server.close();
      server = undefined;
      const llm = fromOpenAI(client({ maxRetries: 0, baseURL: closedUrl }), { model: 'gpt-4o-mini' });
      const error = await llm
        .generate({ messages: [{ role: 'user', content: 'Hi' }], tools: [] })
        .catch((caught: unknown) => caught);

      expect(error).toBeInstanceOf(ToolRuntimeError);
      expect(error).toMatchObject({ provider: 'openai', status: undefined, retryable: true });
      expect((error as Error).message).toMatch(
        /^OpenAI \(through the openai client\) failed: .*Check the client's base URL/,
      );
    });

    it('rejects with ToolCancelledError when the run is canceled during the request', async () => {
      server = await startProviderServer([{ body: finalChatAnswer('late'), delayMs: 10_000 }]);
      const llm = fromOpenAI(client({ maxRetries: 0 }), { model: 'gpt-4o-mini' });
      const controller = new AbortController();
      const pending = llm.generate({
        messages: [{ role: 'user', content: 'Hi' }],
        tools: [],
        signal: controller.signal,
      });
      while (server.requests.length === 0) await new Promise((resolve) => setImmediate(resolve));
      controller.abort(new Error('user pressed stop'));

      const error = await pending.catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolCancelledError);
      expect((error as Error).message).toBe('The OpenAI request was canceled.');
    });

    it('turns a completion without choices into a ToolRuntimeError', async () => {
      server = await startProviderServer([{ body: { id: 'chatcmpl-x', object: 'chat.completion' } }]);
      const llm = fromOpenAI(client({ maxRetries: 0 }), { model: 'gpt-4o-mini' });
      await expect(llm.generate({ messages: [{ role: 'user', content: 'Hi' }], tools: [] })).rejects.toThrow(
        new ToolRuntimeError(
          'OpenAI answered without choices[0].message; the response does not match its API.',
        ),
      );
    });

    it('checks its options when created', () => {
      const openai = new OpenAI({ apiKey: KEY, baseURL: 'http://127.0.0.1:9/v1' });
      expect(() => fromOpenAI(openai, { model: '' })).toThrow(ToolInputError);
      expect(() => fromOpenAI(openai, { model: '' })).toThrow(/fromOpenAI needs \{ model \}/);
      expect(() => fromOpenAI(openai, { model: 'gpt-4o', api: 'assistants' as never })).toThrow(
        "fromOpenAI got the unknown api \"assistants\"; use 'chat' (Chat Completions) or 'responses'.",
      );
      const chatOnly = { chat: openai.chat } as unknown as OpenAIClient;
      expect(() => fromOpenAI(chatOnly, { model: 'gpt-4o', api: 'responses' })).toThrow(
        /needs an openai client with responses\.create\(\)/,
      );
      expect(fromOpenAI(chatOnly, { model: 'gpt-4o', provider: 'azure-openai' }).provider).toBe(
        'azure-openai',
      );
    });
  });
});
