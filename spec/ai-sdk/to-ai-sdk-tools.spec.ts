import { generateText, stepCountIs } from 'ai';
import type { ModelMessage } from 'ai';
import type { MockLanguageModelV3 } from 'ai/test';
import {
  ActionDeniedError,
  ApprovalDecision,
  ApprovalRequiredError,
  BudgetExceededError,
  RunContext,
  ToolDefinitionError,
  ToolInputError,
  ToolValidationError,
} from '../../lib';
import { toAISDKTools } from '../../lib/ai-sdk';
import { buildBridgeAgent } from '../fixtures/bridges/bridge-agent';
import { scriptedLanguageModel } from './scripted-language-model';

/** The tool results the model was shown in its n-th call. */
function toolOutputsSeen(model: MockLanguageModelV3, call: number): { type: string; value?: unknown }[] {
  const outputs: { type: string; value?: unknown }[] = [];
  for (const message of model.doGenerateCalls[call].prompt) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type === 'tool-result') outputs.push(part.output as { type: string; value?: unknown });
    }
  }
  return outputs;
}

describe('toAISDKTools', () => {
  describe('with generateText', () => {
    it('runs a call through the agent, coercing "3" to 3, and gives the result to the model', async () => {
      const { agent, log } = buildBridgeAgent();
      const model = scriptedLanguageModel([[{ id: 'c1', name: 'add', input: { a: '3', b: 4 } }], 'seven']);

      const result = await generateText({
        model,
        tools: toAISDKTools(agent),
        prompt: 'add',
        stopWhen: stepCountIs(3),
      });

      expect(result.text).toBe('seven');
      expect(log.calls).toEqual([{ tool: 'add', args: { a: 3, b: 4 } }]);
      expect(result.steps[0].toolResults.map((part) => part.output)).toEqual([{ sum: 7 }]);
      expect(toolOutputsSeen(model, 1)).toEqual([{ type: 'json', value: { sum: 7 } }]);
    });

    it('shows the model each tool with its description and its own JSON Schema', async () => {
      const { agent } = buildBridgeAgent();
      const model = scriptedLanguageModel(['nothing to do']);

      await generateText({ model, tools: toAISDKTools(agent), prompt: 'hi' });

      const offered = model.doGenerateCalls[0].tools ?? [];
      expect(offered.map((tool) => tool.name).sort()).toEqual([
        'add',
        'explode',
        'publish',
        'wait_for_cancel',
        'wipe',
      ]);
      const add = offered.find((tool) => tool.name === 'add');
      expect(add).toMatchObject({
        type: 'function',
        description: 'Adds two integers.',
        inputSchema: {
          type: 'object',
          properties: { a: { type: 'integer' }, b: { type: 'integer' }, note: { type: 'string' } },
          required: ['a', 'b'],
          additionalProperties: false,
        },
      });
    });

    it('gives every validation problem back to the model as the tool error, and does not run the tool', async () => {
      const { agent, log } = buildBridgeAgent();
      const model = scriptedLanguageModel([[{ id: 'c1', name: 'add', input: { a: 'x', note: 5 } }], 'sorry']);

      const result = await generateText({
        model,
        tools: toAISDKTools(agent),
        prompt: 'add',
        stopWhen: stepCountIs(3),
      });

      expect(log.calls).toEqual([]);
      const errors = result.steps[0].content.filter((part) => part.type === 'tool-error');
      expect(errors).toHaveLength(1);
      const error = errors[0].type === 'tool-error' ? errors[0].error : undefined;
      expect(error).toBeInstanceOf(ToolValidationError);
      expect((error as ToolValidationError).issues.map((issue) => issue.path).sort()).toEqual([
        'a',
        'b',
        'note',
      ]);
      const [seen] = toolOutputsSeen(model, 1);
      expect(seen.type).toBe('error-text');
      expect(seen.value).toContain("Invalid arguments for tool 'add'");
      expect(seen.value).toMatch(/a: .*;.*b: .*;.*note: /);
    });

    it('reports a policy denial to the model without running the tool', async () => {
      const { agent, log } = buildBridgeAgent();
      const model = scriptedLanguageModel([[{ id: 'c1', name: 'wipe', input: {} }], 'ok']);

      const result = await generateText({
        model,
        tools: toAISDKTools(agent),
        prompt: 'wipe',
        stopWhen: stepCountIs(3),
      });

      expect(log.calls).toEqual([]);
      const error = result.steps[0].content.find((part) => part.type === 'tool-error');
      expect(error?.type === 'tool-error' && error.error).toBeInstanceOf(ActionDeniedError);
      expect(toolOutputsSeen(model, 1)[0].value).toContain("Action 'wipe' denied");
    });

    it('cancels the run context of a running call when the AI SDK abortSignal aborts', async () => {
      const { agent, log } = buildBridgeAgent();
      const model = scriptedLanguageModel([[{ id: 'c1', name: 'wait_for_cancel', input: {} }], 'never']);
      const controller = new AbortController();

      const running = generateText({
        model,
        tools: toAISDKTools(agent),
        prompt: 'wait',
        abortSignal: controller.signal,
        stopWhen: stepCountIs(3),
      });
      await log.waiting;
      controller.abort(new Error('user pressed stop'));

      await expect(running).rejects.toThrow();
      expect(log.cancellation).toMatchObject({ started: true, canceled: true, reason: 'user pressed stop' });
      expect(model.doGenerateCalls).toHaveLength(1);
    });

    it('runs every call in a child of the given context, so its budget counts them all', async () => {
      const { agent, log } = buildBridgeAgent();
      const parent = new RunContext({ budget: { maxToolCalls: 1 } });
      const model = scriptedLanguageModel([
        [{ id: 'c1', name: 'add', input: { a: 1, b: 1 } }],
        [{ id: 'c2', name: 'add', input: { a: 2, b: 2 } }],
        'done',
      ]);

      const result = await generateText({
        model,
        tools: toAISDKTools(agent, { context: parent }),
        prompt: 'add twice',
        stopWhen: stepCountIs(4),
      });

      expect(log.calls).toHaveLength(1);
      expect(parent.usage.toolCalls).toBe(1);
      const error = result.steps[1].content.find((part) => part.type === 'tool-error');
      expect(error?.type === 'tool-error' && error.error).toBeInstanceOf(BudgetExceededError);
    });

    it('asks a context factory for the parent of each call, with the tool name and call id', async () => {
      const { agent } = buildBridgeAgent();
      const seen: { toolName: string; toolCallId?: string }[] = [];
      const parent = new RunContext({ runId: 'conversation-1' });
      const model = scriptedLanguageModel([[{ id: 'c7', name: 'add', input: { a: 1, b: 2 } }], 'done']);

      await generateText({
        model,
        tools: toAISDKTools(agent, {
          context: (call) => {
            seen.push({ ...call });
            return parent;
          },
        }),
        prompt: 'add',
        stopWhen: stepCountIs(3),
      });

      expect(seen).toEqual([{ toolName: 'add', toolCallId: 'c7' }]);
      expect(parent.usage.toolCalls).toBe(1);
    });
  });

  describe("approval: 'agent' (default)", () => {
    it("asks the agent's approval handler, which sees the action builder's preview", async () => {
      const previews: unknown[] = [];
      const { agent, log } = buildBridgeAgent((request) => {
        previews.push(...request.action.artifacts.map((artifact) => artifact.content));
        return new ApprovalDecision({ approved: true, requestId: request.requestId, decidedBy: 'alice' });
      });
      const model = scriptedLanguageModel([
        [{ id: 'c1', name: 'publish', input: { title: 'Hello' } }],
        'done',
      ]);

      const result = await generateText({
        model,
        tools: toAISDKTools(agent),
        prompt: 'publish',
        stopWhen: stepCountIs(3),
      });

      expect(result.content.some((part) => part.type === 'tool-approval-request')).toBe(false);
      expect(previews).toEqual(['Would publish "Hello"']);
      expect(log.calls).toEqual([{ tool: 'publish', args: { title: 'Hello' } }]);
      expect(log.approvals[0].decision?.decidedBy).toBe('alice');
    });

    it('fails closed with ApprovalRequiredError, told to the model, when the agent has no approver', async () => {
      const { agent, log } = buildBridgeAgent();
      const model = scriptedLanguageModel([
        [{ id: 'c1', name: 'publish', input: { title: 'Hello' } }],
        'done',
      ]);

      const result = await generateText({
        model,
        tools: toAISDKTools(agent),
        prompt: 'publish',
        stopWhen: stepCountIs(3),
      });

      expect(log.calls).toEqual([]);
      const error = result.steps[0].content.find((part) => part.type === 'tool-error');
      expect(error?.type === 'tool-error' && error.error).toBeInstanceOf(ApprovalRequiredError);
    });
  });

  describe("approval: 'sdk'", () => {
    async function requestApproval(title: string) {
      const { agent, log } = buildBridgeAgent();
      const tools = toAISDKTools(agent, { approval: 'sdk' });
      const messages: ModelMessage[] = [{ role: 'user', content: `publish ${title}` }];
      const first = await generateText({
        model: scriptedLanguageModel([[{ id: 'c1', name: 'publish', input: { title } }]]),
        tools,
        messages,
        stopWhen: stepCountIs(3),
      });
      const request = first.content.find((part) => part.type === 'tool-approval-request');
      if (request?.type !== 'tool-approval-request') throw new Error('the AI SDK asked for no approval');
      return { agent, log, tools, request, history: [...messages, ...first.response.messages] };
    }

    it('turns require_approval into a tool-approval-request and does not run the tool', async () => {
      const { log, request } = await requestApproval('Hello');

      expect(request.toolCall).toMatchObject({ toolName: 'publish', toolCallId: 'c1' });
      expect(log.calls).toEqual([]);
      expect(log.approvals).toEqual([]);
    });

    it('runs the call once approved, recording the AI SDK approval as its ApprovalDecision', async () => {
      const { log, tools, request, history } = await requestApproval('Hello');
      const model = scriptedLanguageModel(['published']);

      const second = await generateText({
        model,
        tools,
        messages: [
          ...history,
          {
            role: 'tool',
            content: [
              {
                type: 'tool-approval-response',
                approvalId: request.approvalId,
                approved: true,
                reason: 'looks fine',
              },
            ],
          },
        ],
        stopWhen: stepCountIs(3),
      });

      expect(second.text).toBe('published');
      expect(log.calls).toEqual([{ tool: 'publish', args: { title: 'Hello' } }]);
      expect(log.approvals).toHaveLength(1);
      const [approval] = log.approvals;
      expect(approval.request.action.artifacts.map((artifact) => artifact.content)).toEqual([
        'Would publish "Hello"',
      ]);
      expect(approval.decision).toMatchObject({
        approved: true,
        requestId: approval.request.requestId,
        decidedBy: 'ai-sdk',
        reason: 'looks fine',
        metadata: { approvalId: request.approvalId, toolCallId: 'c1' },
      });
      expect(toolOutputsSeen(model, 0)).toEqual([{ type: 'text', value: 'published: Hello' }]);
    });

    it('never runs a call the user denied; the model is told it was denied', async () => {
      const { log, tools, request, history } = await requestApproval('Hello');
      const model = scriptedLanguageModel(['ok']);

      await generateText({
        model,
        tools,
        messages: [
          ...history,
          {
            role: 'tool',
            content: [
              {
                type: 'tool-approval-response',
                approvalId: request.approvalId,
                approved: false,
                reason: 'no',
              },
            ],
          },
        ],
      });

      expect(log.calls).toEqual([]);
      expect(toolOutputsSeen(model, 0)).toEqual([{ type: 'execution-denied', reason: 'no' }]);
    });

    it('asks no approval for calls the policy allows or denies', async () => {
      const { agent, log } = buildBridgeAgent();
      const model = scriptedLanguageModel([
        [
          { id: 'c1', name: 'add', input: { a: 1, b: 2 } },
          { id: 'c2', name: 'wipe', input: {} },
          { id: 'c3', name: 'add', input: { a: 'not a number' } },
        ],
        'done',
      ]);

      const result = await generateText({
        model,
        tools: toAISDKTools(agent, { approval: 'sdk' }),
        prompt: 'go',
        stopWhen: stepCountIs(3),
      });

      expect(result.steps[0].content.some((part) => part.type === 'tool-approval-request')).toBe(false);
      expect(log.calls).toEqual([{ tool: 'add', args: { a: 1, b: 2 } }]);
      const errors = result.steps[0].content.flatMap((part) =>
        part.type === 'tool-error' ? [part.error] : [],
      );
      expect(errors[0]).toBeInstanceOf(ActionDeniedError);
      expect(errors[1]).toBeInstanceOf(ToolValidationError);
    });

    it('does not treat a call without an AI SDK approval as approved', async () => {
      const { agent, log } = buildBridgeAgent();
      const publish = toAISDKTools(agent, { approval: 'sdk' }).publish;

      await expect(
        publish.execute?.({ title: 'Sneaky' }, { toolCallId: 'c9', messages: [] }),
      ).rejects.toBeInstanceOf(ApprovalRequiredError);
      expect(log.calls).toEqual([]);
    });
  });

  describe('options', () => {
    it('rejects an unknown approval mode', () => {
      const { agent } = buildBridgeAgent();
      expect(() => toAISDKTools(agent, { approval: 'user' as 'sdk' })).toThrow(ToolInputError);
      expect(() => toAISDKTools(agent, { approval: 'user' as 'sdk' })).toThrow(
        /approval must be 'agent' or 'sdk'/,
      );
    });

    it('rejects a context that is neither a RunContext nor a factory', () => {
      const { agent } = buildBridgeAgent();
      expect(() => toAISDKTools(agent, { context: {} as RunContext })).toThrow(ToolInputError);
    });

    it('fails the call when the context factory returns something else', async () => {
      const { agent } = buildBridgeAgent();
      const add = toAISDKTools(agent, { context: () => ({}) as RunContext }).add;

      await expect(add.execute?.({ a: 1, b: 2 }, { toolCallId: 'c1', messages: [] })).rejects.toThrow(
        /must be a RunContext or a function returning one; it gave object for tool 'add'/,
      );
    });

    it('refuses a tool whose arguments are not an object', () => {
      const { agent } = buildBridgeAgent();
      agent.addTool({
        name: 'shout',
        description: 'Takes a bare string.',
        inputSchema: { type: 'string' },
        outputSchema: null,
        tags: null,
        examples: null,
        capabilities: null,
        call: async () => 'ok',
      });
      expect(() => toAISDKTools(agent)).toThrow(ToolDefinitionError);
    });
  });
});
