import { GoogleGenAI } from '@google/genai';
import { Agent } from '../../../lib/agents/agent';
import { ToolCancelledError } from '../../../lib/errors/tool-cancelled-error';
import { ToolInputError } from '../../../lib/errors/tool-input-error';
import { ToolRuntimeError } from '../../../lib/errors/tool-runtime-error';
import { fromGemini } from '../../../lib/llm/clients/from-gemini';
import type { GeminiClient } from '../../../lib/llm/clients/gemini-client';
import { runToolLoop } from '../../../lib/llm/run-tool-loop';
import { NativeTool } from '../../../lib/tools/native-tool';
import { LoopCaller } from '../../fixtures/llm/loop-caller';
import { startProviderServer } from '../../fixtures/llm/provider-test-server';
import type { ProviderTestServer } from '../../fixtures/llm/provider-test-server';
import { readLlmFixture } from '../../fixtures/llm/read-llm-fixture';

const KEY = 'AIzaSyTestClientKey0123456789abcdef';

/** Derived from the recorded response: the function call replaced by a final text part. */
function finalAnswer(text: string) {
  const body = readLlmFixture('gemini/generate-content.function-call.json');
  body.candidates[0].content.parts = [{ text }];
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

describe('fromGemini', () => {
  let server: ProviderTestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  /**
   * Gemini's client retries only when given retry options; a short delay keeps the suite quick. The global
   * fetch is passed explicitly because the client's default path looks for Node's Undici dispatcher on
   * `globalThis`, which jest's sandbox does not have (plain Node does).
   */
  const client = (attempts = 2) =>
    new GoogleGenAI({
      apiKey: KEY,
      httpOptions: {
        baseUrl: server!.baseUrl,
        retryOptions: { attempts, initialDelay: 0.005, maxDelay: 0.01 },
        fetch: (input, init) => fetch(input, init),
      },
    });

  describe('generate', () => {
    it('runs agent.infer over the recorded functionCall, after the client retried a 503 itself', async () => {
      server = await startProviderServer([
        {
          status: 503,
          body: { error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } },
        },
        { body: readLlmFixture('gemini/generate-content.function-call.json') },
        { body: finalAnswer('Saved Mexico City.') },
      ]);
      const agent = new Agent({
        card: { name: 'geo', description: 'Geography', url: 'runtime://geo' },
        tools: [finalResult()],
      });
      const llm = fromGemini(client(), { model: 'gemini-2.0-flash', temperature: 0 });
      const result = await agent.infer('Where is the biggest city of Mexico?', {
        llm,
        system: 'Use the tools.',
      });

      expect(llm).toMatchObject({ provider: 'gemini', model: 'gemini-2.0-flash' });
      expect(result.text).toBe('Saved Mexico City.');
      expect(result.toolCalls).toEqual([
        expect.objectContaining({
          name: 'final_result',
          status: 'ok',
          result: { saved: 'Mexico City, Mexico' },
        }),
      ]);
      expect(result.usage).toMatchObject({ inputTokens: 94, outputTokens: 16, llmCalls: 2 });
      expect(server.requests).toHaveLength(3);
      expect(server.requests[1].body).toEqual(server.requests[0].body);
      for (const request of server.requests) {
        expect(request.url).toBe('/v1beta/models/gemini-2.0-flash:generateContent');
        expect(request.headers['x-goog-api-key']).toBe(KEY);
      }
      expect(server.requests[0].body).toEqual({
        contents: [{ role: 'user', parts: [{ text: 'Where is the biggest city of Mexico?' }] }],
        systemInstruction: { parts: [{ text: 'Use the tools.' }] },
        generationConfig: { temperature: 0 },
        tools: [
          {
            functionDeclarations: [
              {
                name: 'final_result',
                description: 'The final answer',
                parametersJsonSchema: expect.objectContaining({
                  type: 'object',
                  properties: { city: { type: 'string' }, country: { type: 'string' } },
                  required: ['city', 'country'],
                }),
              },
            ],
          },
        ],
      });
      expect(server.requests[2].body.contents.slice(1)).toEqual([
        {
          role: 'model',
          parts: [
            { functionCall: { name: 'final_result', args: { city: 'Mexico City', country: 'Mexico' } } },
          ],
        },
        {
          role: 'user',
          parts: [{ functionResponse: { name: 'final_result', response: { saved: 'Mexico City, Mexico' } } }],
        },
      ]);
    });

    it('sends each recorded thoughtSignature back with its call', async () => {
      server = await startProviderServer([
        { body: readLlmFixture('gemini/generate-content.parallel-function-calls.json') },
        { body: finalAnswer('Three topics.') },
      ]);
      const topic = new NativeTool({ name: 'generate_topic', description: 'A topic', func: () => 'cats' });
      const result = await runToolLoop(new LoopCaller([topic]), 'Three topics, please', {
        llm: fromGemini(client(), { model: 'gemini-3-flash-preview' }),
      });

      const recorded = readLlmFixture('gemini/generate-content.parallel-function-calls.json');
      expect(result.toolCalls.map((call) => call.status)).toEqual(['ok', 'ok', 'ok']);
      const echoed = server.requests[1].body.contents[1].parts;
      expect(echoed[0].thoughtSignature).toBe(recorded.candidates[0].content.parts[0].thoughtSignature);
      expect(echoed.slice(1).map((part: { thoughtSignature?: string }) => part.thoughtSignature)).toEqual([
        undefined,
        undefined,
      ]);
      expect(server.requests[0].body.tools[0].functionDeclarations[0].parametersJsonSchema).toMatchObject({
        type: 'object',
        properties: {},
      });
    });
  });

  describe('errors', () => {
    it('turns an HTTP error into a ToolRuntimeError naming Gemini, without the key', async () => {
      server = await startProviderServer([
        {
          status: 400,
          body: { error: { code: 400, message: `API key not valid: ${KEY}`, status: 'INVALID_ARGUMENT' } },
        },
      ]);
      const error = await fromGemini(client(1), { model: 'gemini-2.0-flash' })
        .generate({ messages: [{ role: 'user', content: 'Hi' }], tools: [] })
        .catch((caught: unknown) => caught);

      expect(error).toBeInstanceOf(ToolRuntimeError);
      expect(error).toMatchObject({ provider: 'gemini', status: 400, retryable: false });
      expect((error as Error).message).toMatch(
        /^Gemini \(through the @google\/genai client\) answered HTTP 400: /,
      );
      expect((error as Error).message).toContain('check the model name');
      expect((error as Error).message).not.toContain(KEY);
    });

    it('reports a 503 the client kept getting after its own retries as retryable', async () => {
      const overloaded = {
        status: 503,
        body: { error: { code: 503, message: 'Overloaded', status: 'UNAVAILABLE' } },
      };
      server = await startProviderServer([overloaded, overloaded]);
      const error = await fromGemini(client(2), { model: 'gemini-2.0-flash' })
        .generate({ messages: [{ role: 'user', content: 'Hi' }], tools: [] })
        .catch((caught: unknown) => caught);

      expect(server.requests).toHaveLength(2);
      expect(error).toMatchObject({ provider: 'gemini', status: 503, retryable: true });
    });

    it('turns a blocked prompt into a ToolRuntimeError', async () => {
      server = await startProviderServer([{ body: { promptFeedback: { blockReason: 'SAFETY' } } }]);
      await expect(
        fromGemini(client(1), { model: 'gemini-2.0-flash' }).generate({
          messages: [{ role: 'user', content: 'Hi' }],
          tools: [],
        }),
      ).rejects.toThrow(new ToolRuntimeError('Gemini blocked the prompt (SAFETY); rephrase it.'));
    });

    it('rejects with ToolCancelledError when the run is canceled during the request', async () => {
      server = await startProviderServer([{ body: finalAnswer('late'), delayMs: 10_000 }]);
      const controller = new AbortController();
      const pending = fromGemini(client(1), { model: 'gemini-2.0-flash' }).generate({
        messages: [{ role: 'user', content: 'Hi' }],
        tools: [],
        signal: controller.signal,
      });
      while (server.requests.length === 0) await new Promise((resolve) => setImmediate(resolve));
      controller.abort();

      const error = await pending.catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolCancelledError);
      expect((error as Error).message).toBe('The Gemini request was canceled.');
    });

    it('checks its options when created', () => {
      const ai = new GoogleGenAI({ apiKey: KEY });
      expect(() => fromGemini(ai, {} as never)).toThrow(ToolInputError);
      expect(() => fromGemini({ models: {} } as GeminiClient, { model: 'gemini-2.0-flash' })).toThrow(
        /fromGemini needs a @google\/genai client with models\.generateContent\(\)/,
      );
    });
  });
});
