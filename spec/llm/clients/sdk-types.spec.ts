/**
 * Type-level checks (ts-jest type-checks this file): Protolink's declarations and request bodies are
 * assignable to each official SDK's own parameter types, and the real clients are assignable to the
 * structural client interfaces `fromOpenAI`/`fromAnthropic`/`fromGemini` take, without casts.
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import type { GenerateContentParameters, Tool as GeminiSdkTool } from '@google/genai';
import OpenAI, { AzureOpenAI } from 'openai';
import { readFileSync } from 'fs';
import { join } from 'path';
import type { AnthropicClient } from '../../../lib/llm/clients/anthropic-client';
import type { GeminiClient, GeminiGenerateContentParams } from '../../../lib/llm/clients/gemini-client';
import type { OpenAIClient } from '../../../lib/llm/clients/openai-client';
import type { AnthropicMessagesBody } from '../../../lib/llm/providers/anthropic-messages-format';
import type { OpenAIChatCompletionBody } from '../../../lib/llm/providers/openai-chat-format';
import type { OpenAIResponsesBody } from '../../../lib/llm/providers/openai-responses-format';
import { toAnthropicTools } from '../../../lib/llm/to-anthropic-tools';
import { toGeminiTools } from '../../../lib/llm/to-gemini-tools';
import { toOpenAITools } from '../../../lib/llm/to-openai-tools';
import { NativeTool } from '../../../lib/tools/native-tool';

const tools = [
  new NativeTool({
    name: 'get_capital',
    description: 'The capital of a country',
    inputSchema: {
      type: 'object',
      properties: { country: { type: 'string', enum: ['England', 'France'] }, limit: { type: 'integer' } },
      required: ['country'],
    },
    func: () => 'London',
  }),
];

describe('official SDK types', () => {
  it('accepts the real clients as the structural client interfaces', () => {
    const openai: OpenAIClient = new OpenAI({ apiKey: 'sk-test', baseURL: 'http://127.0.0.1:9' });
    const azure: OpenAIClient = new AzureOpenAI({
      apiKey: 'test',
      endpoint: 'http://127.0.0.1:9',
      apiVersion: '2024-10-21',
    });
    const anthropic: AnthropicClient = new Anthropic({ apiKey: 'test', baseURL: 'http://127.0.0.1:9' });
    const gemini: GeminiClient = new GoogleGenAI({ apiKey: 'test' });
    expect([openai, azure, anthropic, gemini].every((client) => typeof client === 'object')).toBe(true);
  });

  it('declares tools the SDKs accept as their own tool types', () => {
    const chat: OpenAI.Chat.ChatCompletionTool[] = toOpenAITools(tools);
    const responses: OpenAI.Responses.Tool[] = toOpenAITools(tools, { api: 'responses' });
    const anthropic: Anthropic.Messages.Tool[] = toAnthropicTools(tools);
    const anthropicUnion: Anthropic.Messages.ToolUnion[] = toAnthropicTools(tools);
    const gemini: GeminiSdkTool[] = toGeminiTools(tools, { format: 'parametersJsonSchema' });
    expect(anthropic[0].input_schema.type).toBe('object');
    expect(gemini[0].functionDeclarations?.[0].parametersJsonSchema).toMatchObject({ type: 'object' });
    expect([chat, responses, anthropicUnion].map((list) => list.length)).toEqual([1, 1, 1]);
  });

  it('builds request bodies assignable to the SDKs own non-streaming parameter types', () => {
    type Assignable<Source, Target> = Source extends Target ? true : false;
    const checks: [
      Assignable<OpenAIChatCompletionBody, OpenAI.Chat.ChatCompletionCreateParamsNonStreaming>,
      Assignable<OpenAIResponsesBody, OpenAI.Responses.ResponseCreateParamsNonStreaming>,
      Assignable<AnthropicMessagesBody, Anthropic.MessageCreateParamsNonStreaming>,
      Assignable<GeminiGenerateContentParams, GenerateContentParameters>,
    ] = [true, true, true, true];
    expect(checks).toEqual([true, true, true, true]);
  });

  it('keeps the root entry free of the SDK packages', () => {
    const index = readFileSync(join(__dirname, '../../../lib/index.ts'), 'utf8');
    expect(index).not.toMatch(/(from|import\(|require\() ?'(openai|@anthropic-ai\/sdk|@google\/genai)/);
    for (const file of [
      'from-openai',
      'from-anthropic',
      'from-gemini',
      'openai-client',
      'anthropic-client',
      'gemini-client',
    ]) {
      const source = readFileSync(join(__dirname, `../../../lib/llm/clients/${file}.ts`), 'utf8');
      expect(source).not.toMatch(/(from|import\(|require\() ?'(openai|@anthropic-ai\/sdk|@google\/genai)/);
    }
  });
});
