// Rich tool results (ToolResult) through runToolLoop: what each provider receives in its tool-result message.
import { AnthropicLLM } from '../../lib/llm/providers/anthropic-llm';
import { GeminiLLM } from '../../lib/llm/providers/gemini-llm';
import { OpenAIChatLLM } from '../../lib/llm/providers/openai-chat-llm';
import { OpenAICompatibleLLM } from '../../lib/llm/providers/openai-compatible-llm';
import { OpenAIResponsesLLM } from '../../lib/llm/providers/openai-responses-llm';
import { runToolLoop } from '../../lib/llm/run-tool-loop';
import type { LLM } from '../../lib/llm/llm';
import { NativeTool } from '../../lib/tools/native-tool';
import { ToolResult } from '../../lib/tools/tool-result';
import { LoopCaller } from '../fixtures/llm/loop-caller';
import { startProviderServer } from '../fixtures/llm/provider-test-server';
import type { ProviderTestServer } from '../fixtures/llm/provider-test-server';
import { readLlmFixture } from '../fixtures/llm/read-llm-fixture';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'); // 16 bytes
const PNG_BASE64 = PNG.toString('base64');
const PDF_BASE64 = Buffer.from('%PDF-1.4 tiny').toString('base64'); // 13 bytes
const WAV_BASE64 = Buffer.from('RIFF0000WAVE').toString('base64'); // 12 bytes

/** The rich result every tool below returns: text, a PNG, a PDF resource, audio and a link. */
const richResult = () =>
  ToolResult.of(
    'Here is the chart.',
    ToolResult.image(PNG, 'image/png'),
    ToolResult.resource({ uri: 'file:///reports/q3.pdf', mimeType: 'application/pdf', blob: PDF_BASE64 }),
    ToolResult.audio(WAV_BASE64, 'audio/wav'),
    ToolResult.resourceLink({ uri: 'file:///reports/q4.pdf', name: 'q4.pdf', mimeType: 'application/pdf' }),
  );

/** The text form of {@link richResult} (what text-only providers receive). */
const RICH_TEXT = [
  'Here is the chart.',
  '[image image/png, 16 bytes base64 omitted]',
  '[resource file:///reports/q3.pdf application/pdf, 13 bytes base64 omitted]',
  '[audio audio/wav, 12 bytes base64 omitted]',
  '[resource link q4.pdf <file:///reports/q4.pdf> (application/pdf)]',
].join('\n');

const tool = (name: string, result: () => unknown) =>
  new NativeTool({
    name,
    description: `The ${name} tool`,
    inputSchema: { type: 'object', properties: { country: { type: 'string' }, city: { type: 'string' } } },
    func: result,
  });

/** Derived from the recorded tool-call bodies: the calls replaced by a final text answer. */
const finals = {
  chat: () => {
    const body = readLlmFixture('openai/chat-completion.tool-call.json');
    body.choices[0].message = { role: 'assistant', content: 'done', refusal: null };
    body.choices[0].finish_reason = 'stop';
    return body;
  },
  responses: () => {
    const body = readLlmFixture('openai/responses.function-call.json');
    body.output = [
      {
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'done' }],
      },
    ];
    return body;
  },
  anthropic: () => {
    const body = readLlmFixture('anthropic/messages.tool-use.no-args.json');
    body.content = [{ type: 'text', text: 'done' }];
    body.stop_reason = 'end_turn';
    return body;
  },
  gemini: () => {
    const body = readLlmFixture('gemini/generate-content.function-call.json');
    body.candidates[0].content.parts = [{ text: 'done' }];
    return body;
  },
};

describe('rich tool results in runToolLoop', () => {
  let server: ProviderTestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  /** Runs one recorded tool call whose tool returns `result`, and returns the second request's body. */
  async function secondRequest(
    fixture: string,
    final: Record<string, unknown>,
    makeLlm: (baseUrl: string) => LLM,
    toolName: string,
    result: () => unknown,
    maxResultChars?: number,
  ): Promise<any> {
    server = await startProviderServer([{ body: readLlmFixture(fixture) }, { body: final }]);
    const outcome = await runToolLoop(new LoopCaller([tool(toolName, result)]), 'Go', {
      llm: makeLlm(server.baseUrl),
      ...(maxResultChars !== undefined ? { maxResultChars } : {}),
    });
    expect(outcome.text).toBe('done');
    expect(ToolResult.isToolResult(outcome.toolCalls[0].result)).toBe(true);
    expect(server.requests).toHaveLength(2);
    return server.requests[1].body;
  }

  describe('AnthropicLLM', () => {
    const anthropic = (baseUrl: string) => new AnthropicLLM({ model: 'claude-3-opus', baseUrl, apiKey: 'k' });

    it('sends text, image and PDF document blocks, and placeholders for audio and links', async () => {
      const body = await secondRequest(
        'anthropic/messages.tool-use.no-args.json',
        finals.anthropic(),
        anthropic,
        'updateIssueList',
        richResult,
      );
      const toolResult = body.messages.at(-1).content[0];
      expect(toolResult.type).toBe('tool_result');
      expect(toolResult.content).toEqual([
        { type: 'text', text: 'Here is the chart.' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_BASE64 } },
        {
          type: 'document',
          source: { type: 'base64', media_type: 'application/pdf', data: PDF_BASE64 },
          title: 'file:///reports/q3.pdf',
        },
        { type: 'text', text: '[audio audio/wav, 12 bytes base64 omitted]' },
        { type: 'text', text: '[resource link q4.pdf <file:///reports/q4.pdf> (application/pdf)]' },
      ]);
    });

    it('puts structuredContent first as JSON when there is no text, and keeps unsupported images as text', async () => {
      const body = await secondRequest(
        'anthropic/messages.tool-use.no-args.json',
        finals.anthropic(),
        anthropic,
        'updateIssueList',
        () => ToolResult.image(PNG, 'image/bmp').withStructuredContent({ width: 2 }),
      );
      expect(body.messages.at(-1).content[0].content).toEqual([
        { type: 'text', text: '{"width":2}' },
        { type: 'text', text: '[image image/bmp, 16 bytes base64 omitted]' },
      ]);
    });

    it('sends a text-only ToolResult as a plain string, cut to maxResultChars', async () => {
      const body = await secondRequest(
        'anthropic/messages.tool-use.no-args.json',
        finals.anthropic(),
        anthropic,
        'updateIssueList',
        () => ToolResult.of('abcdef', 'ghij'),
        8,
      );
      expect(body.messages.at(-1).content[0].content).toBe('abcdef\ngh… [truncated: 2 more characters]');
    });
  });

  describe('OpenAIResponsesLLM', () => {
    it('sends a function_call_output array with input_text, input_image and input_file', async () => {
      const body = await secondRequest(
        'openai/responses.function-call.json',
        finals.responses(),
        (baseUrl) => new OpenAIResponsesLLM({ model: 'gpt-4o', baseUrl, apiKey: 'k' }),
        'get_capital',
        richResult,
      );
      const output = body.input.find((item: any) => item.type === 'function_call_output');
      expect(output.output).toEqual([
        { type: 'input_text', text: 'Here is the chart.' },
        { type: 'input_image', image_url: `data:image/png;base64,${PNG_BASE64}` },
        { type: 'input_file', filename: 'q3.pdf', file_data: `data:application/pdf;base64,${PDF_BASE64}` },
        { type: 'input_text', text: '[audio audio/wav, 12 bytes base64 omitted]' },
        { type: 'input_text', text: '[resource link q4.pdf <file:///reports/q4.pdf> (application/pdf)]' },
      ]);
    });
  });

  describe('OpenAIChatLLM and OpenAICompatibleLLM', () => {
    it.each([
      [
        'OpenAIChatLLM',
        (baseUrl: string) => new OpenAIChatLLM({ model: 'gpt-4o-mini', baseUrl, apiKey: 'k' }),
      ],
      [
        'OpenAICompatibleLLM',
        (baseUrl: string) => new OpenAICompatibleLLM({ model: 'llama3', baseUrl, provider: 'ollama' }),
      ],
    ])('%s sends the text form with placeholders in the tool message', async (_name, makeLlm) => {
      const body = await secondRequest(
        'openai/chat-completion.tool-call.json',
        finals.chat(),
        makeLlm,
        'get_capital',
        richResult,
      );
      const message = body.messages.find((item: any) => item.role === 'tool');
      expect(message.content).toBe(RICH_TEXT);
    });
  });

  describe('GeminiLLM', () => {
    it('sends the text form inside the functionResponse object', async () => {
      const body = await secondRequest(
        'gemini/generate-content.function-call.json',
        finals.gemini(),
        (baseUrl) => new GeminiLLM({ model: 'gemini-2.0-flash', baseUrl, apiKey: 'k' }),
        'final_result',
        richResult,
      );
      const part = body.contents.at(-1).parts[0];
      expect(part.functionResponse.name).toBe('final_result');
      expect(part.functionResponse.response).toEqual({ result: RICH_TEXT });
    });

    it('sends structuredContent as the response object when the result has no text part', async () => {
      const body = await secondRequest(
        'gemini/generate-content.function-call.json',
        finals.gemini(),
        (baseUrl) => new GeminiLLM({ model: 'gemini-2.0-flash', baseUrl, apiKey: 'k' }),
        'final_result',
        () => ToolResult.of().withStructuredContent({ city: 'Mexico City' }),
      );
      expect(body.contents.at(-1).parts[0].functionResponse.response).toEqual({ city: 'Mexico City' });
    });
  });
});
