import { ToolInputError } from '../../../lib/errors/tool-input-error';
import { GeminiLLM } from '../../../lib/llm/providers/gemini-llm';
import { runToolLoop } from '../../../lib/llm/run-tool-loop';
import { NativeTool } from '../../../lib/tools/native-tool';
import { LoopCaller } from '../../fixtures/llm/loop-caller';
import { startProviderServer } from '../../fixtures/llm/provider-test-server';
import type { ProviderTestServer } from '../../fixtures/llm/provider-test-server';
import { readLlmFixture } from '../../fixtures/llm/read-llm-fixture';

const KEY = 'AIzaTestKey0123456789abcdef';

/** Derived from the recorded response: the functionCall part replaced by a text part. */
function finalAnswer(text: string) {
  const body = readLlmFixture('gemini/generate-content.function-call.json');
  body.candidates[0].content.parts = [{ text }];
  return body;
}

describe('GeminiLLM', () => {
  let server: ProviderTestServer | undefined;
  const saved = { GEMINI_API_KEY: process.env.GEMINI_API_KEY, GOOGLE_API_KEY: process.env.GOOGLE_API_KEY };
  beforeEach(() => {
    delete process.env.GEMINI_API_KEY;
    delete process.env.GOOGLE_API_KEY;
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  describe('generate', () => {
    it('runs the recorded function call over generateContent and sends the function response back', async () => {
      server = await startProviderServer([
        { body: readLlmFixture('gemini/generate-content.function-call.json') },
        { body: finalAnswer('Saved Mexico City.') },
      ]);
      process.env.GOOGLE_API_KEY = KEY;
      const finalResult = new NativeTool({
        name: 'final_result',
        description: 'Store the city',
        inputSchema: {
          type: 'object',
          properties: { city: { type: 'string' }, country: { type: 'string' } },
          required: ['city', 'country'],
        },
        func: (args) => ({ stored: `${args.city}, ${args.country}` }),
      });
      const llm = new GeminiLLM({
        model: 'gemini-2.0-flash',
        baseUrl: `${server.baseUrl}/v1beta`,
        temperature: 0,
      });
      const result = await runToolLoop(
        new LoopCaller([finalResult]),
        'Where is the largest city of Mexico?',
        { llm, system: 'Use final_result.' },
      );

      expect(result.text).toBe('Saved Mexico City.');
      expect(result.usage).toEqual({ inputTokens: 94, outputTokens: 16, llmCalls: 2, toolCalls: 1 });
      expect(server.requests.map((request) => [request.url, request.headers['x-goog-api-key']])).toEqual([
        ['/v1beta/models/gemini-2.0-flash:generateContent', KEY],
        ['/v1beta/models/gemini-2.0-flash:generateContent', KEY],
      ]);
      const tools = [
        {
          functionDeclarations: [
            {
              name: 'final_result',
              description: 'Store the city',
              parameters: {
                type: 'object',
                properties: { city: { type: 'string' }, country: { type: 'string' } },
                required: ['city', 'country'],
              },
            },
          ],
        },
      ];
      const start = { role: 'user', parts: [{ text: 'Where is the largest city of Mexico?' }] };
      const common = {
        systemInstruction: { parts: [{ text: 'Use final_result.' }] },
        tools,
        generationConfig: { temperature: 0 },
      };
      expect(server.requests[0].body).toEqual({ contents: [start], ...common });
      expect(server.requests[1].body).toEqual({
        contents: [
          start,
          {
            role: 'model',
            parts: [
              { functionCall: { name: 'final_result', args: { city: 'Mexico City', country: 'Mexico' } } },
            ],
          },
          {
            role: 'user',
            parts: [
              { functionResponse: { name: 'final_result', response: { stored: 'Mexico City, Mexico' } } },
            ],
          },
        ],
        ...common,
      });
    });

    it('runs the recorded parallel calls and returns each thoughtSignature with its call', async () => {
      const recorded = readLlmFixture('gemini/generate-content.parallel-function-calls.json');
      server = await startProviderServer([{ body: recorded }, { body: finalAnswer('Three topics.') }]);
      let topic = 0;
      const generateTopic = new NativeTool({
        name: 'generate_topic',
        description: 'Invent a topic',
        func: () => `topic ${(topic += 1)}`,
      });
      const llm = new GeminiLLM({
        model: 'gemini-3-flash-preview',
        baseUrl: `${server.baseUrl}/v1beta`,
        apiKey: KEY,
      });
      const result = await runToolLoop(new LoopCaller([generateTopic]), 'Give me three topics', { llm });

      expect(result.toolCalls).toHaveLength(3);
      expect(server.requests[0].body.tools).toEqual([
        { functionDeclarations: [{ name: 'generate_topic', description: 'Invent a topic' }] },
      ]);
      const recordedParts = recorded.candidates[0].content.parts as Record<string, any>[];
      const modelTurn = server.requests[1].body.contents[1];
      expect(modelTurn).toEqual({
        role: 'model',
        parts: recordedParts
          .filter((part) => part.functionCall)
          .map((part) => ({
            functionCall: { name: 'generate_topic', args: {} },
            ...(part.thoughtSignature ? { thoughtSignature: part.thoughtSignature } : {}),
          })),
      });
      expect(modelTurn.parts[0].thoughtSignature).toBe(recordedParts[0].thoughtSignature);
      expect(server.requests[1].body.contents[2]).toEqual({
        role: 'user',
        parts: [1, 2, 3].map((index) => ({
          functionResponse: { name: 'generate_topic', response: { result: `topic ${index}` } },
        })),
      });
    });

    it('prefers GEMINI_API_KEY over GOOGLE_API_KEY', async () => {
      server = await startProviderServer([{ body: finalAnswer('Hi.') }]);
      process.env.GEMINI_API_KEY = `${KEY}-gemini`;
      process.env.GOOGLE_API_KEY = `${KEY}-google`;
      const llm = new GeminiLLM({ model: 'gemini-2.0-flash', baseUrl: `${server.baseUrl}/v1beta` });
      expect(await llm.generate({ messages: [{ role: 'user', content: 'Hi' }], tools: [] })).toMatchObject({
        text: 'Hi.',
        toolCalls: [],
        finishReason: 'STOP',
      });
      expect(server.requests[0].headers['x-goog-api-key']).toBe(`${KEY}-gemini`);
      expect(server.requests[0].body).toEqual({ contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] });
    });
    it('leaves out an empty model turn from the history', async () => {
      server = await startProviderServer([{ body: finalAnswer('ok') }]);
      const llm = new GeminiLLM({
        model: 'gemini-2.0-flash',
        baseUrl: `${server.baseUrl}/v1beta`,
        apiKey: KEY,
      });
      await llm.generate({
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: null },
        ],
        tools: [],
      });
      expect(server.requests[0].body.contents).toEqual([{ role: 'user', parts: [{ text: 'Hi' }] }]);
    });
  });

  describe('errors', () => {
    it('rejects a call with neither key set', async () => {
      const llm = new GeminiLLM({ model: 'gemini-2.0-flash', baseUrl: 'http://127.0.0.1:9' });
      await expect(llm.generate({ messages: [{ role: 'user', content: 'Hi' }], tools: [] })).rejects.toThrow(
        new ToolInputError(
          "No API key for gemini: set GEMINI_API_KEY or GOOGLE_API_KEY in the environment, or pass { apiKey } to the model's constructor.",
        ),
      );
    });

    it('maps a 400 to a non-retryable ToolRuntimeError', async () => {
      server = await startProviderServer([
        {
          status: 400,
          body: [
            {
              error: {
                code: 400,
                message: 'Invalid JSON payload received. Unknown name "additionalProperties"',
                status: 'INVALID_ARGUMENT',
              },
            },
          ],
        },
      ]);
      const llm = new GeminiLLM({
        model: 'gemini-2.0-flash',
        baseUrl: `${server.baseUrl}/v1beta`,
        apiKey: KEY,
      });
      await expect(
        llm.generate({ messages: [{ role: 'user', content: 'Hi' }], tools: [] }),
      ).rejects.toMatchObject({
        name: 'ToolRuntimeError',
        message:
          'Gemini answered HTTP 400: Invalid JSON payload received. Unknown name "additionalProperties". The request was rejected; check the model name and the tool declarations.',
        provider: 'gemini',
        status: 400,
        retryable: false,
      });
    });

    it('reports a blocked prompt', async () => {
      server = await startProviderServer([{ body: { promptFeedback: { blockReason: 'SAFETY' } } }]);
      const llm = new GeminiLLM({
        model: 'gemini-2.0-flash',
        baseUrl: `${server.baseUrl}/v1beta`,
        apiKey: KEY,
      });
      await expect(
        llm.generate({ messages: [{ role: 'user', content: 'Hi' }], tools: [] }),
      ).rejects.toMatchObject({
        name: 'ToolRuntimeError',
        message: 'Gemini blocked the prompt (SAFETY); rephrase it.',
        retryable: false,
      });
    });

    it('rejects a body without candidates', async () => {
      server = await startProviderServer([{ body: {} }]);
      const llm = new GeminiLLM({
        model: 'gemini-2.0-flash',
        baseUrl: `${server.baseUrl}/v1beta`,
        apiKey: KEY,
      });
      await expect(llm.generate({ messages: [{ role: 'user', content: 'Hi' }], tools: [] })).rejects.toThrow(
        'Gemini answered without candidates[0]; the response does not match its API.',
      );
    });
  });
});
