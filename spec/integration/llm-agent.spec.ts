import 'reflect-metadata';
import { Agent } from '../../lib/agents/agent';
import { BudgetExceededError } from '../../lib/errors/budget-exceeded-error';
import { OpenAIChatLLM } from '../../lib/llm/providers/openai-chat-llm';
import { runToolLoop } from '../../lib/llm/run-tool-loop';
import { ScriptedLLM } from '../../lib/llm/scripted-llm';
import { toOpenAITools } from '../../lib/llm/to-openai-tools';
import type { LlmToolMessage } from '../../lib/llm/llm';
import type { ToolCallTrace } from '../../lib/llm/tool-loop-types';
import { CapabilityPolicy } from '../../lib/policy/capability-policy';
import { RunContext } from '../../lib/runtime/run-context';
import { NativeTool } from '../../lib/tools/native-tool';
import { HotelTools } from '../fixtures/llm/llm-tool-corpus';
import { startProviderServer } from '../fixtures/llm/provider-test-server';
import type { ProviderTestServer } from '../fixtures/llm/provider-test-server';
import { readLlmFixture } from '../fixtures/llm/read-llm-fixture';

function buildAgent(received: unknown[] = []) {
  const agent = new Agent({
    card: { name: 'travel', description: 'Travel desk', url: 'http://127.0.0.1:0' },
    policy: new CapabilityPolicy({ 'files.delete': 'deny', 'payments.send': 'require_approval' }),
    approvalHandler: (request) =>
      (request.action.payload as { arguments: { amount: number } }).arguments.amount < 100,
    toolsets: [new HotelTools()],
  });
  const record = (name: string) => (args: Record<string, unknown>) => (
    received.push({ name, args }),
    `${name} done`
  );
  agent.addTool(
    new NativeTool({
      name: 'delete_file',
      description: 'Delete a file',
      capabilities: ['files.delete'],
      inputSchema: {},
      func: record('delete_file'),
    }),
  );
  agent.addTool(
    new NativeTool({
      name: 'wire_money',
      description: 'Send money',
      capabilities: ['payments.send'],
      inputSchema: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
      func: record('wire_money'),
    }),
  );
  return agent;
}

const toolMessages = (llm: ScriptedLLM, call: number) =>
  llm.calls[call].messages
    .filter((message): message is LlmToolMessage => message.role === 'tool')
    .map((message) =>
      JSON.parse(message.content.startsWith('{') ? message.content : JSON.stringify(message.content)),
    );

describe('runToolLoop with an Agent', () => {
  describe('call path', () => {
    it('validates, applies policy and approval, feeds problems back, and passes strict-mode nulls as absent', async () => {
      const received: unknown[] = [];
      const agent = buildAgent(received);
      const events: string[] = [];
      agent.on('tool-call-end', (event) => {
        events.push(`end:${event.toolName}`);
      });
      agent.on('tool-call-error', (event) => {
        events.push(`error:${event.toolName}`);
      });
      const context = new RunContext({ runId: 'integration-1' });
      const llm = new ScriptedLLM([
        {
          toolCalls: [
            {
              id: 'r1',
              name: 'reserve_room',
              arguments: '{"request":{"city":"Oslo","guests":0,"notes":null}}',
            },
            { id: 'd1', name: 'delete_file', arguments: '{}' },
          ],
        },
        {
          toolCalls: [
            {
              id: 'r2',
              name: 'reserve_room',
              arguments: '{"request":{"city":"Oslo","guests":"2","notes":null}}',
            },
            { id: 'w1', name: 'wire_money', arguments: { amount: 500 } },
            { id: 'w2', name: 'wire_money', arguments: { amount: 20 } },
          ],
        },
        { text: 'Room reserved; 20 sent; 500 needs a human.' },
      ]);
      const result = await runToolLoop(agent, 'Book Oslo for two, clean up, pay', { llm, context });

      expect(result.text).toBe('Room reserved; 20 sent; 500 needs a human.');
      expect(result.toolCalls.map((call: ToolCallTrace) => [call.id, call.status])).toEqual([
        ['r1', 'error'],
        ['d1', 'error'],
        ['r2', 'ok'],
        ['w1', 'error'],
        ['w2', 'ok'],
      ]);
      const [invalid, denied] = toolMessages(llm, 1);
      expect(invalid.error).toMatchObject({
        type: 'invalid_arguments',
        code: 'TOOL_VALIDATION',
        issues: [{ path: 'request.guests', message: expect.stringContaining('1') }],
      });
      expect(denied.error).toMatchObject({ type: 'denied', code: 'ACTION_DENIED' });
      const [, , , rejected] = toolMessages(llm, 2);
      expect(rejected.error).toMatchObject({ type: 'denied', code: 'ACTION_DENIED' });
      expect(result.toolCalls[2].result).toBe('Oslo:2');
      expect(received).toEqual([{ name: 'wire_money', args: { amount: 20 } }]);
      expect(context.usage).toEqual({ toolCalls: 2, steps: 3, llmCalls: 3 });
      expect(events).toEqual(
        expect.arrayContaining(['end:reserve_room', 'end:wire_money', 'error:delete_file']),
      );
    });

    it('stops with BudgetExceededError and the trace when the agent refuses a call over budget.maxToolCalls', async () => {
      const agent = buildAgent();
      const context = new RunContext({ budget: { maxToolCalls: 1 } });
      const llm = new ScriptedLLM([
        { toolCalls: [{ name: 'wire_money', arguments: { amount: 1 } }] },
        { toolCalls: [{ name: 'wire_money', arguments: { amount: 2 } }] },
        { text: 'never' },
      ]);
      const error = (await runToolLoop(agent, 'pay twice', { llm, context }).catch(
        (caught: unknown) => caught,
      )) as BudgetExceededError;
      expect(error).toBeInstanceOf(BudgetExceededError);
      expect(error.limit).toBe('maxToolCalls');
      expect((error.trace as ToolCallTrace[]).map((call) => call.status)).toEqual(['ok', 'error']);
    });
  });

  describe('declarations and wire format', () => {
    let server: ProviderTestServer | undefined;
    afterEach(async () => {
      await server?.close();
      server = undefined;
    });

    it('exports the agent tools and runs a DTO tool from an OpenAI-shaped response', async () => {
      const agent = buildAgent();
      const declarations = toOpenAITools(agent);
      expect(declarations.map((tool) => tool.function.name)).toEqual([
        'reserve_room',
        'delete_file',
        'wire_money',
      ]);
      expect(declarations[0].function.parameters.properties!.request.properties!.notes).toEqual({
        type: ['string', 'null'],
      });

      // Derived from the recorded completion: the call renamed to the agent's DTO tool with strict-mode arguments.
      const first = readLlmFixture('openai/chat-completion.tool-call.json');
      first.choices[0].message.tool_calls[0].function = {
        name: 'reserve_room',
        arguments: '{"request":{"city":"Rome","guests":3,"notes":null}}',
      };
      const final = readLlmFixture('openai/chat-completion.tool-call.json');
      final.choices[0].message = { role: 'assistant', content: 'Reserved.' };
      server = await startProviderServer([{ body: first }, { body: final }]);
      const llm = new OpenAIChatLLM({
        model: 'gpt-4o-mini',
        baseUrl: `${server.baseUrl}/v1`,
        apiKey: 'sk-test-integration-123',
      });
      const result = await runToolLoop(agent, 'Rome for three', { llm });
      expect(result.toolCalls[0]).toMatchObject({ name: 'reserve_room', status: 'ok', result: 'Rome:3' });
      expect(server.requests[0].body.tools).toEqual(declarations);
      expect(server.requests[1].body.messages.at(-1)).toEqual({
        role: 'tool',
        tool_call_id: 'call_SkEQ3ZGSJC8m6AvaIGNuuKdm',
        content: 'Rome:3',
      });
    });
  });
});
