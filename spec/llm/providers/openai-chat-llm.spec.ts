import { inspect } from 'util';
import { ToolInputError } from '../../../lib/errors/tool-input-error';
import { ToolRuntimeError } from '../../../lib/errors/tool-runtime-error';
import { OpenAIChatLLM } from '../../../lib/llm/providers/openai-chat-llm';
import { runToolLoop } from '../../../lib/llm/run-tool-loop';
import { NativeTool } from '../../../lib/tools/native-tool';
import { LoopCaller } from '../../fixtures/llm/loop-caller';
import { startProviderServer } from '../../fixtures/llm/provider-test-server';
import type { ProviderTestServer } from '../../fixtures/llm/provider-test-server';
import { readLlmFixture } from '../../fixtures/llm/read-llm-fixture';

const KEY = 'sk-test-0123456789abcdef';

/** Derived from the recorded completion: the tool-call message replaced by a final text answer. */
function finalAnswer(text: string) {
  const body = readLlmFixture('openai/chat-completion.tool-call.json');
  body.choices[0].message = { role: 'assistant', content: text, refusal: null, annotations: [] };
  body.choices[0].finish_reason = 'stop';
  return body;
}

const getCapital = () =>
  new NativeTool({
    name: 'get_capital',
    description: 'Get the capital of a country',
    inputSchema: { type: 'object', properties: { country: { type: 'string' } }, required: ['country'] },
    func: (args) => (args.country === 'England' ? 'London' : 'unknown'),
  });

describe('OpenAIChatLLM', () => {
  let server: ProviderTestServer | undefined;
  const saved = process.env.OPENAI_API_KEY;
  beforeEach(() => {
    delete process.env.OPENAI_API_KEY;
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    if (saved === undefined) delete process.env.OPENAI_API_KEY;
    else process.env.OPENAI_API_KEY = saved;
  });

  describe('generate', () => {
    it('runs the tool loop over the Chat Completions wire format with the recorded tool call', async () => {
      server = await startProviderServer([
        { body: readLlmFixture('openai/chat-completion.tool-call.json') },
        { body: finalAnswer('The capital of England is London.') },
      ]);
      const llm = new OpenAIChatLLM({ model: 'gpt-4o-mini', baseUrl: `${server.baseUrl}/v1` });
      process.env.OPENAI_API_KEY = KEY; // read when called, not when constructed
      const result = await runToolLoop(new LoopCaller([getCapital()]), 'What is the capital of England?', {
        llm,
        system: 'Answer in one sentence.',
      });

      expect(result.text).toBe('The capital of England is London.');
      expect(result.usage).toEqual({ inputTokens: 208, outputTokens: 32, llmCalls: 2, toolCalls: 1 });
      expect(
        server.requests.map((request) => [request.method, request.url, request.headers.authorization]),
      ).toEqual([
        ['POST', '/v1/chat/completions', `Bearer ${KEY}`],
        ['POST', '/v1/chat/completions', `Bearer ${KEY}`],
      ]);
      const declaration = {
        type: 'function',
        function: {
          name: 'get_capital',
          description: 'Get the capital of a country',
          parameters: {
            type: 'object',
            properties: { country: { type: 'string' } },
            required: ['country'],
            additionalProperties: false,
            title: 'get_capitalInput',
          },
          strict: true,
        },
      };
      expect(server.requests[0].body).toEqual({
        model: 'gpt-4o-mini',
        messages: [
          { role: 'system', content: 'Answer in one sentence.' },
          { role: 'user', content: 'What is the capital of England?' },
        ],
        tools: [declaration],
      });
      expect(server.requests[1].body).toEqual({
        model: 'gpt-4o-mini',
        messages: [
          { role: 'system', content: 'Answer in one sentence.' },
          { role: 'user', content: 'What is the capital of England?' },
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
        ],
        tools: [declaration],
      });
    });

    it('runs the recorded parallel tool calls and returns a policy denial as a tool message', async () => {
      server = await startProviderServer([
        { body: readLlmFixture('openai/chat-completion.parallel-tool-calls.json') },
        { body: finalAnswer('Created test.txt; deleting .env was denied.') },
      ]);
      const files = (name: string, capability: string) =>
        new NativeTool({
          name,
          description: `${name} a file`,
          capabilities: [capability],
          inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
          func: (args) => `${name}: ${args.path}`,
        });
      const caller = new LoopCaller(
        [files('create_file', 'files.write'), files('delete_file', 'files.delete')],
        { deny: ['files.delete'] },
      );
      const llm = new OpenAIChatLLM({
        model: 'gpt-4o',
        baseUrl: `${server.baseUrl}/v1`,
        apiKey: KEY,
        temperature: 0,
        maxTokens: 200,
      });
      const result = await runToolLoop(caller, 'Delete the file `.env` and create `test.txt`', { llm });

      expect(result.toolCalls.map((call) => [call.name, call.status])).toEqual([
        ['delete_file', 'error'],
        ['create_file', 'ok'],
      ]);
      expect(server.requests[0].body).toMatchObject({ temperature: 0, max_completion_tokens: 200 });
      expect(server.requests[1].body.messages.slice(1)).toEqual([
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_jYdIdRZHxZTn5bWCq5jlMrJi',
              type: 'function',
              function: { name: 'delete_file', arguments: '{"path": ".env"}' },
            },
            {
              id: 'call_TmlTVWQbzrXCZ4jNsCVNbNqu',
              type: 'function',
              function: { name: 'create_file', arguments: '{"path": "test.txt"}' },
            },
          ],
        },
        {
          role: 'tool',
          tool_call_id: 'call_jYdIdRZHxZTn5bWCq5jlMrJi',
          content: JSON.stringify({
            error: {
              type: 'denied',
              code: 'ACTION_DENIED',
              message:
                "Policy denied 'delete_file': capability files.delete is denied. The call did not run; do not retry it.",
            },
          }),
        },
        { role: 'tool', tool_call_id: 'call_TmlTVWQbzrXCZ4jNsCVNbNqu', content: 'create_file: test.txt' },
      ]);
    });

    it('sends no tools field when there are no tools', async () => {
      server = await startProviderServer([{ body: finalAnswer('Hello.') }]);
      const llm = new OpenAIChatLLM({ model: 'gpt-4o-mini', baseUrl: `${server.baseUrl}/v1`, apiKey: KEY });
      expect(await llm.generate({ messages: [{ role: 'user', content: 'Hi' }], tools: [] })).toEqual({
        text: 'Hello.',
        toolCalls: [],
        usage: { inputTokens: 104, outputTokens: 16 },
        finishReason: 'stop',
      });
      expect(server.requests[0].body).toEqual({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'Hi' }],
      });
    });
    it('sends an empty string for an assistant turn without text or tool calls', async () => {
      server = await startProviderServer([{ body: finalAnswer('ok') }]);
      const llm = new OpenAIChatLLM({ model: 'gpt-4o-mini', baseUrl: `${server.baseUrl}/v1`, apiKey: KEY });
      await llm.generate({
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: null },
          { role: 'user', content: 'Again' },
        ],
        tools: [],
      });
      expect(server.requests[0].body.messages[1]).toEqual({ role: 'assistant', content: '' });
    });
  });

  describe('errors', () => {
    it('rejects a call without OPENAI_API_KEY before any request', async () => {
      server = await startProviderServer([]);
      const llm = new OpenAIChatLLM({ model: 'gpt-4o-mini', baseUrl: `${server.baseUrl}/v1` });
      await expect(llm.generate({ messages: [{ role: 'user', content: 'Hi' }], tools: [] })).rejects.toThrow(
        new ToolInputError(
          "No API key for openai: set OPENAI_API_KEY in the environment, or pass { apiKey } to the model's constructor.",
        ),
      );
      expect(server.requests).toHaveLength(0);
    });

    it('maps a 401 to a non-retryable ToolRuntimeError without the key anywhere', async () => {
      server = await startProviderServer([
        {
          status: 401,
          body: {
            error: {
              message: `Incorrect API key provided: ${KEY}.`,
              type: 'invalid_request_error',
              code: 'invalid_api_key',
            },
          },
        },
      ]);
      process.env.OPENAI_API_KEY = KEY;
      const llm = new OpenAIChatLLM({ model: 'gpt-4o-mini', baseUrl: `${server.baseUrl}/v1` });
      const error = (await llm
        .generate({ messages: [{ role: 'user', content: 'Hi' }], tools: [] })
        .catch((caught: unknown) => caught)) as ToolRuntimeError;
      expect(error).toBeInstanceOf(ToolRuntimeError);
      expect(error.message).toBe(
        'OpenAI answered HTTP 401: Incorrect API key provided: [redacted]. Check the API key.',
      );
      expect(error).toMatchObject({ provider: 'openai', status: 401, retryable: false });
      expect(inspect(error, { depth: 10 })).not.toContain(KEY);
      expect(JSON.stringify(error.toJSON())).not.toContain(KEY);
      expect(error.cause).toBeUndefined();
    });

    it('maps a 429 to a retryable ToolRuntimeError', async () => {
      server = await startProviderServer([
        { status: 429, body: { error: { message: 'Rate limit reached for gpt-4o-mini.' } } },
      ]);
      const llm = new OpenAIChatLLM({ model: 'gpt-4o-mini', baseUrl: `${server.baseUrl}/v1`, apiKey: KEY });
      await expect(
        llm.generate({ messages: [{ role: 'user', content: 'Hi' }], tools: [] }),
      ).rejects.toMatchObject({
        name: 'ToolRuntimeError',
        message:
          'OpenAI answered HTTP 429: Rate limit reached for gpt-4o-mini. This may succeed if retried later.',
        provider: 'openai',
        status: 429,
        retryable: true,
      });
    });

    it('rejects a 200 body without choices', async () => {
      server = await startProviderServer([{ body: { id: 'x', object: 'chat.completion' } }]);
      const llm = new OpenAIChatLLM({ model: 'gpt-4o-mini', baseUrl: `${server.baseUrl}/v1`, apiKey: KEY });
      await expect(llm.generate({ messages: [{ role: 'user', content: 'Hi' }], tools: [] })).rejects.toThrow(
        new ToolRuntimeError(
          'OpenAI answered without choices[0].message; the response does not match its API.',
        ),
      );
    });
  });
});
