// Sample 10: one agent's tools inside three frameworks — the Vercel AI SDK, LangChain and the OpenAI
// Agents SDK — each with the framework's own mock model, so it runs fully offline. Every call still goes
// through the agent: validation (and coercion: "3" becomes 3), policy, approval, budgets and cancellation.
// Run: npx ts-node --transpile-only samples/10-frameworks/main.ts
import 'reflect-metadata';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { Agent as OpenAIAgent, Usage, run, setTracingDisabled } from '@openai/agents';
import type { Model, ModelResponse, StreamEvent } from '@openai/agents';
import { generateText, stepCountIs } from 'ai';
import type { ModelMessage } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { createAgent } from 'langchain';
import { Agent, CapabilityPolicy } from '../../lib/index';
import { toAISDKTools } from '../../lib/ai-sdk/index';
import { toLangChainTools } from '../../lib/langchain/index';
import { toOpenAIAgentsTools } from '../../lib/openai-agents/index';

const agent = new Agent({
  card: { name: 'desk', description: 'Arithmetic and publishing', url: 'http://127.0.0.1:8000' },
  policy: new CapabilityPolicy({ 'content.publish': 'require_approval' }),
});
agent.tool(
  {
    name: 'add',
    description: 'Adds two integers.',
    inputSchema: {
      type: 'object',
      properties: { a: { type: 'integer' }, b: { type: 'integer' } },
      required: ['a', 'b'],
      additionalProperties: false,
    },
  },
  (args) => ({ sum: (args.a as number) + (args.b as number) }),
);
agent.tool(
  {
    name: 'publish',
    description: 'Publishes a post.',
    inputSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
    capabilities: ['content.publish'],
  },
  (args) => `published "${String(args.title)}"`,
);

/** The AI SDK's mock model: a tool call first, then text. */
function aiSdkModel(
  call: { toolName: string; input: unknown } | undefined,
  text: string,
): MockLanguageModelV3 {
  let turn = 0;
  const usage = {
    inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 1, text: 1, reasoning: undefined },
  };
  return new MockLanguageModelV3({
    doGenerate: async () =>
      turn++ === 0 && call
        ? {
            content: [
              {
                type: 'tool-call',
                toolCallId: 'call-1',
                toolName: call.toolName,
                input: JSON.stringify(call.input),
              },
            ],
            finishReason: { unified: 'tool-calls', raw: undefined },
            usage,
            warnings: [],
          }
        : {
            content: [{ type: 'text', text }],
            finishReason: { unified: 'stop', raw: undefined },
            usage,
            warnings: [],
          },
  });
}

/** A LangChain chat model that calls `add` once, then answers (LangChain's fakes cannot emit tool calls). */
class OneCallChatModel extends BaseChatModel {
  private turn = 0;
  _llmType(): string {
    return 'one-call';
  }
  override bindTools(): this {
    return this;
  }
  async _generate(): Promise<ChatResult> {
    const message =
      this.turn++ === 0
        ? new AIMessage({
            content: '',
            tool_calls: [{ id: 'call-1', name: 'add', args: { a: '3', b: 4 }, type: 'tool_call' }],
          })
        : new AIMessage({ content: 'LangChain: 3 + 4 = 7' });
    return { generations: [{ text: '', message }] };
  }
}

/** An OpenAI Agents SDK model that calls `add` once, then answers. */
class OneCallAgentsModel implements Model {
  private turn = 0;
  async getResponse(): Promise<ModelResponse> {
    const output: ModelResponse['output'] =
      this.turn++ === 0
        ? [
            {
              type: 'function_call',
              callId: 'call-1',
              name: 'add',
              arguments: '{"a":"3","b":4}',
              status: 'completed',
            },
          ]
        : [
            {
              type: 'message',
              role: 'assistant',
              status: 'completed',
              content: [{ type: 'output_text', text: 'OpenAI Agents: 3 + 4 = 7' }],
            },
          ];
    return { usage: new Usage(), output };
  }
  async *getStreamedResponse(): AsyncIterable<StreamEvent> {
    throw new Error('not used in this sample');
  }
}

async function main(): Promise<void> {
  // 1. Vercel AI SDK: the one-liner.
  const sum = await generateText({
    model: aiSdkModel({ toolName: 'add', input: { a: '3', b: 4 } }, 'AI SDK: 3 + 4 = 7'),
    tools: toAISDKTools(agent),
    prompt: 'What is 3 + 4?',
    stopWhen: stepCountIs(3),
  });
  console.log(`${sum.text} (tool result ${JSON.stringify(sum.steps[0].toolResults[0]?.output)})`);

  // 1b. The AI SDK's own approval flow: the policy's require_approval becomes a tool-approval-request.
  const tools = toAISDKTools(agent, { approval: 'sdk' });
  const messages: ModelMessage[] = [{ role: 'user', content: 'Publish "Hello"' }];
  const asked = await generateText({
    model: aiSdkModel({ toolName: 'publish', input: { title: 'Hello' } }, 'unused'),
    tools,
    messages,
  });
  const request = asked.content.find((part) => part.type === 'tool-approval-request');
  if (request?.type !== 'tool-approval-request') throw new Error('expected an approval request');
  console.log(
    `AI SDK asks approval for ${request.toolCall.toolName}(${JSON.stringify(request.toolCall.input)})`,
  );
  const approved = await generateText({
    model: aiSdkModel(undefined, 'AI SDK: the post is out'),
    tools,
    messages: [
      ...messages,
      ...asked.response.messages,
      {
        role: 'tool',
        content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved: true }],
      },
    ],
  });
  // The approved call ran before the model's next step; its result is in the response messages.
  const results = approved.response.messages.flatMap((message) =>
    message.role === 'tool' ? message.content.filter((part) => part.type === 'tool-result') : [],
  );
  console.log(`Approved and run: ${JSON.stringify(results[0]?.output)}; ${approved.text}`);

  // 2. LangChain: createAgent with the agent's tools.
  const langchain = await createAgent({
    model: new OneCallChatModel({}),
    tools: toLangChainTools(agent),
  }).invoke({
    messages: [{ role: 'user', content: 'What is 3 + 4?' }],
  });
  console.log(String(langchain.messages.at(-1)?.content));

  // 3. OpenAI Agents SDK: new Agent({ tools }) and run().
  setTracingDisabled(true); // offline: no trace export
  const openai = await run(
    new OpenAIAgent({ name: 'desk', model: new OneCallAgentsModel(), tools: toOpenAIAgentsTools(agent) }),
    'What is 3 + 4?',
  );
  console.log(String(openai.finalOutput));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
