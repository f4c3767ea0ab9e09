import { inspect } from 'util';
import { ToolInputError } from '../../../lib/errors/tool-input-error';
import { AnthropicLLM } from '../../../lib/llm/providers/anthropic-llm';
import { runToolLoop } from '../../../lib/llm/run-tool-loop';
import { NativeTool } from '../../../lib/tools/native-tool';
import { LoopCaller } from '../../fixtures/llm/loop-caller';
import { startProviderServer } from '../../fixtures/llm/provider-test-server';
import type { ProviderTestServer } from '../../fixtures/llm/provider-test-server';
import { readLlmFixture } from '../../fixtures/llm/read-llm-fixture';

const KEY = 'sk-ant-test-0123456789abcdef';

/** Derived from the recorded message: the content replaced by a final text block. */
function finalAnswer(text: string) {
  const body = readLlmFixture('anthropic/messages.tool-use.parallel.json');
  body.content = [{ type: 'text', text }];
  body.stop_reason = 'end_turn';
  return body;
}

const ages: Record<string, number> = { Alice: 34, Bob: 29, Charlie: 41, Daisy: 7 };
const retrieveEntityInfo = () =>
  new NativeTool({
    name: 'retrieve_entity_info',
    description: 'Look up a family member',
    inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    func: (args) => ({ name: args.name, age: ages[String(args.name)] }),
  });

describe('AnthropicLLM', () => {
  let server: ProviderTestServer | undefined;
  const saved = process.env.ANTHROPIC_API_KEY;
  afterEach(async () => {
    await server?.close();
    server = undefined;
    if (saved === undefined) delete process.env.ANTHROPIC_API_KEY;
    else process.env.ANTHROPIC_API_KEY = saved;
  });

  describe('generate', () => {
    it('runs the recorded four parallel tool_use blocks and sends all results in one user message', async () => {
      server = await startProviderServer([
        { body: readLlmFixture('anthropic/messages.tool-use.parallel.json') },
        { body: finalAnswer('Daisy is the youngest.') },
      ]);
      process.env.ANTHROPIC_API_KEY = KEY;
      const llm = new AnthropicLLM({ model: 'claude-haiku-4-5', baseUrl: server.baseUrl });
      const result = await runToolLoop(new LoopCaller([retrieveEntityInfo()]), 'Who is the youngest?', {
        llm,
        system: 'Use the tools.',
      });

      expect(result.text).toBe('Daisy is the youngest.');
      expect(result.toolCalls.map((call) => call.result)).toEqual([
        { name: 'Alice', age: 34 },
        { name: 'Bob', age: 29 },
        { name: 'Charlie', age: 41 },
        { name: 'Daisy', age: 7 },
      ]);
      expect(result.usage).toEqual({ inputTokens: 846, outputTokens: 404, llmCalls: 2, toolCalls: 4 });
      for (const request of server.requests) {
        expect(request.url).toBe('/v1/messages');
        expect(request.headers).toMatchObject({ 'x-api-key': KEY, 'anthropic-version': '2023-06-01' });
        expect(request.headers.authorization).toBeUndefined();
      }
      const tools = [
        {
          name: 'retrieve_entity_info',
          description: 'Look up a family member',
          input_schema: {
            type: 'object',
            properties: { name: { type: 'string' } },
            required: ['name'],
            additionalProperties: false,
            title: 'retrieve_entity_infoInput',
          },
        },
      ];
      expect(server.requests[0].body).toEqual({
        model: 'claude-haiku-4-5',
        max_tokens: 4096,
        system: 'Use the tools.',
        messages: [{ role: 'user', content: 'Who is the youngest?' }],
        tools,
      });
      const recorded = readLlmFixture('anthropic/messages.tool-use.parallel.json').content as Record<
        string,
        any
      >[];
      expect(server.requests[1].body).toEqual({
        model: 'claude-haiku-4-5',
        max_tokens: 4096,
        system: 'Use the tools.',
        messages: [
          { role: 'user', content: 'Who is the youngest?' },
          {
            role: 'assistant',
            content: [
              { type: 'text', text: recorded[0].text },
              ...recorded
                .slice(1)
                .map((block) => ({ type: 'tool_use', id: block.id, name: block.name, input: block.input })),
            ],
          },
          {
            role: 'user',
            content: recorded.slice(1).map((block) => ({
              type: 'tool_result',
              tool_use_id: block.id,
              content: JSON.stringify({ name: block.input.name, age: ages[block.input.name] }),
            })),
          },
        ],
        tools,
      });
    });

    it('runs the recorded no-argument tool_use and marks a failed result with is_error', async () => {
      server = await startProviderServer([
        { body: readLlmFixture('anthropic/messages.tool-use.no-args.json') },
        { body: finalAnswer('The update failed.') },
      ]);
      const update = new NativeTool({
        name: 'updateIssueList',
        description: 'Refresh the issue list',
        func: () => {
          throw new Error('tracker offline');
        },
      });
      const llm = new AnthropicLLM({
        model: 'claude-3-opus-20240229',
        baseUrl: server.baseUrl,
        apiKey: KEY,
        maxTokens: 512,
        temperature: 0,
      });
      await runToolLoop(new LoopCaller([update]), 'Update the issue list', { llm });
      expect(server.requests[0].body).toMatchObject({
        max_tokens: 512,
        temperature: 0,
        tools: [
          {
            name: 'updateIssueList',
            input_schema: { type: 'object', properties: {}, required: [], additionalProperties: false },
          },
        ],
      });
      expect(server.requests[1].body.messages[1].content[1]).toEqual({
        type: 'tool_use',
        id: 'toolu_01LRmxn9vGM1d2DZSDBowdZ1',
        name: 'updateIssueList',
        input: {},
      });
      expect(server.requests[1].body.messages[2]).toEqual({
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_01LRmxn9vGM1d2DZSDBowdZ1',
            content: JSON.stringify({
              error: {
                type: 'tool_error',
                code: 'TOOL_ERROR',
                message: "Tool 'updateIssueList' failed: tracker offline",
              },
            }),
            is_error: true,
          },
        ],
      });
    });

    it('leaves out an empty assistant turn from the history', async () => {
      server = await startProviderServer([{ body: finalAnswer('ok') }]);
      const llm = new AnthropicLLM({ model: 'claude-haiku-4-5', baseUrl: server.baseUrl, apiKey: KEY });
      await llm.generate({
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: null },
          { role: 'user', content: 'Still there?' },
        ],
        tools: [],
      });
      expect(server.requests[0].body.messages).toEqual([
        { role: 'user', content: 'Hi' },
        { role: 'user', content: 'Still there?' },
      ]);
    });
  });

  describe('errors', () => {
    it('maps an overloaded 529 to a retryable ToolRuntimeError without the key', async () => {
      server = await startProviderServer([
        { status: 529, body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } },
      ]);
      const llm = new AnthropicLLM({ model: 'claude-haiku-4-5', baseUrl: server.baseUrl, apiKey: KEY });
      const error = await llm
        .generate({ messages: [{ role: 'user', content: 'Hi' }], tools: [] })
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({
        name: 'ToolRuntimeError',
        message: 'Anthropic answered HTTP 529: Overloaded. This may succeed if retried later.',
        provider: 'anthropic',
        status: 529,
        retryable: true,
      });
      expect(inspect(error, { depth: 10 })).not.toContain(KEY);
    });

    it('rejects a call without ANTHROPIC_API_KEY', async () => {
      delete process.env.ANTHROPIC_API_KEY;
      const llm = new AnthropicLLM({ model: 'claude-haiku-4-5', baseUrl: 'http://127.0.0.1:9' });
      await expect(llm.generate({ messages: [{ role: 'user', content: 'Hi' }], tools: [] })).rejects.toThrow(
        new ToolInputError(
          "No API key for anthropic: set ANTHROPIC_API_KEY in the environment, or pass { apiKey } to the model's constructor.",
        ),
      );
    });

    it('rejects a body without content', async () => {
      server = await startProviderServer([{ body: { type: 'message' } }]);
      const llm = new AnthropicLLM({ model: 'claude-haiku-4-5', baseUrl: server.baseUrl, apiKey: KEY });
      await expect(llm.generate({ messages: [{ role: 'user', content: 'Hi' }], tools: [] })).rejects.toThrow(
        'Anthropic answered without a content array; the response does not match its API.',
      );
    });
  });
});
