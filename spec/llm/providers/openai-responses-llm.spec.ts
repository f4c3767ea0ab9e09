import { OpenAIResponsesLLM } from '../../../lib/llm/providers/openai-responses-llm';
import { runToolLoop } from '../../../lib/llm/run-tool-loop';
import { NativeTool } from '../../../lib/tools/native-tool';
import { LoopCaller } from '../../fixtures/llm/loop-caller';
import { startProviderServer } from '../../fixtures/llm/provider-test-server';
import type { ProviderTestServer } from '../../fixtures/llm/provider-test-server';
import { readLlmFixture } from '../../fixtures/llm/read-llm-fixture';

const KEY = 'sk-test-responses-0123456789';

/** Derived from the recorded response: the function call replaced by an output message. */
function finalAnswer(text: string) {
  const body = readLlmFixture('openai/responses.function-call.json');
  body.output = [
    {
      id: 'msg_derived',
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text, annotations: [] }],
    },
  ];
  return body;
}

const stringTool = (name: string, property: string, func: (value: string) => string) =>
  new NativeTool({
    name,
    description: `${name} tool`,
    inputSchema: { type: 'object', properties: { [property]: { type: 'string' } }, required: [property] },
    func: (args) => func(String(args[property])),
  });

describe('OpenAIResponsesLLM', () => {
  let server: ProviderTestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  describe('generate', () => {
    it('runs the tool loop over the Responses wire format with the recorded function call', async () => {
      server = await startProviderServer([
        { body: readLlmFixture('openai/responses.function-call.json') },
        { body: finalAnswer('PotatoLand has no capital.') },
      ]);
      const llm = new OpenAIResponsesLLM({ model: 'gpt-4o', baseUrl: `${server.baseUrl}/v1`, apiKey: KEY });
      const caller = new LoopCaller([stringTool('get_capital', 'country', () => 'unknown country')]);
      const result = await runToolLoop(caller, 'What is the capital of PotatoLand?', {
        llm,
        system: 'Be factual.',
      });

      expect(result.text).toBe('PotatoLand has no capital.');
      expect(result.usage).toEqual({ inputTokens: 80, outputTokens: 36, llmCalls: 2, toolCalls: 1 });
      expect(server.requests.map((request) => [request.url, request.headers.authorization])).toEqual([
        ['/v1/responses', `Bearer ${KEY}`],
        ['/v1/responses', `Bearer ${KEY}`],
      ]);
      const tools = [
        {
          type: 'function',
          name: 'get_capital',
          description: 'get_capital tool',
          parameters: {
            type: 'object',
            properties: { country: { type: 'string' } },
            required: ['country'],
            additionalProperties: false,
            title: 'get_capitalInput',
          },
          strict: true,
        },
      ];
      expect(server.requests[0].body).toEqual({
        model: 'gpt-4o',
        instructions: 'Be factual.',
        input: [{ role: 'user', content: 'What is the capital of PotatoLand?' }],
        store: false,
        tools,
      });
      expect(server.requests[1].body).toEqual({
        model: 'gpt-4o',
        instructions: 'Be factual.',
        input: [
          { role: 'user', content: 'What is the capital of PotatoLand?' },
          {
            type: 'function_call',
            call_id: 'call_YfwRsW8sUxDKipwyhWTzOXCA',
            name: 'get_capital',
            arguments: '{"country":"PotatoLand"}',
          },
          {
            type: 'function_call_output',
            call_id: 'call_YfwRsW8sUxDKipwyhWTzOXCA',
            output: 'unknown country',
          },
        ],
        store: false,
        tools,
      });
    });

    it('returns the recorded parallel function calls in order', async () => {
      server = await startProviderServer([
        { body: readLlmFixture('openai/responses.parallel-function-calls.json') },
        { body: finalAnswer('Found both.') },
      ]);
      const llm = new OpenAIResponsesLLM({ model: 'gpt-4o', baseUrl: `${server.baseUrl}/v1`, apiKey: KEY });
      const caller = new LoopCaller([
        stringTool('get_location', 'loc_name', (name) => (name === 'London' ? '51.5,-0.1' : 'not found')),
      ]);
      const result = await runToolLoop(caller, 'What is the location of Londos and London?', { llm });
      expect(result.toolCalls.map((call) => [call.arguments, call.result])).toEqual([
        ['{"loc_name":"Londos"}', 'not found'],
        ['{"loc_name":"London"}', '51.5,-0.1'],
      ]);
      expect(
        server.requests[1].body.input.slice(1).map((item: Record<string, unknown>) => item.type),
      ).toEqual(['function_call', 'function_call', 'function_call_output', 'function_call_output']);
    });
  });

  describe('errors', () => {
    it('maps an HTTP error to ToolRuntimeError naming openai', async () => {
      server = await startProviderServer([
        { status: 500, body: { error: { message: 'The server had an error' } } },
      ]);
      const llm = new OpenAIResponsesLLM({ model: 'gpt-4o', baseUrl: `${server.baseUrl}/v1`, apiKey: KEY });
      await expect(
        llm.generate({ messages: [{ role: 'user', content: 'Hi' }], tools: [] }),
      ).rejects.toMatchObject({
        name: 'ToolRuntimeError',
        message: 'OpenAI answered HTTP 500: The server had an error. This may succeed if retried later.',
        provider: 'openai',
        status: 500,
        retryable: true,
      });
    });

    it('rejects a body without output', async () => {
      server = await startProviderServer([{ body: { id: 'resp_1' } }]);
      const llm = new OpenAIResponsesLLM({ model: 'gpt-4o', baseUrl: `${server.baseUrl}/v1`, apiKey: KEY });
      await expect(llm.generate({ messages: [{ role: 'user', content: 'Hi' }], tools: [] })).rejects.toThrow(
        'OpenAI answered without an output array; the response does not match its API.',
      );
    });
  });
});
