import 'reflect-metadata';
import { Agent } from '../../lib/agents/agent';
import { ActionDeniedError } from '../../lib/errors/action-denied-error';
import { ActionPolicyError } from '../../lib/errors/action-policy-error';
import { ApprovalRequiredError } from '../../lib/errors/approval-required-error';
import { BudgetExceededError } from '../../lib/errors/budget-exceeded-error';
import { ToolCancelledError } from '../../lib/errors/tool-cancelled-error';
import { ToolDefinitionError } from '../../lib/errors/tool-definition-error';
import { ToolNotFoundError } from '../../lib/errors/tool-not-found-error';
import { ToolValidationError } from '../../lib/errors/tool-validation-error';
import type { ApprovalRequest } from '../../lib/policy/approval-request';
import { CapabilityPolicy } from '../../lib/policy/capability-policy';
import type { Policy } from '../../lib/policy/policy';
import { PolicyDecision } from '../../lib/policy/policy-decision';
import { RunAction } from '../../lib/runtime/run-action';
import { RunContext } from '../../lib/runtime/run-context';
import type { BaseTool, ToolCallOptions } from '../../lib/tools/base-tool';
import { NativeTool } from '../../lib/tools/native-tool';
import { BookingRequest } from '../fixtures/dto/booking.dto';
import { TravelTools } from '../fixtures/toolsets/travel-tools';

const card = { name: 'runner', description: 'Runs tools', url: 'runtime://runner' };
const GUESTS = {
  type: 'object',
  properties: { guests: { type: 'integer', minimum: 1 } },
  required: ['guests'],
};

function recordingPolicy(effect: 'allow' | 'deny' | 'require_approval' = 'allow') {
  const seen: RunAction[] = [];
  const policy: Policy = {
    name: 'recording',
    evaluate: (action) => {
      seen.push(action);
      return new PolicyDecision({ effect, reason: `recorded ${effect}`, policyName: 'recording' });
    },
  };
  return { policy, seen };
}

describe('executeToolCall', () => {
  describe('through Agent.callTool', () => {
    it('throws ToolNotFoundError listing the tools that exist', async () => {
      const agent = new Agent({ card, toolsets: [new TravelTools()] });
      const error = (await agent
        .callTool('book_flight')
        .catch((caught: unknown) => caught)) as ToolNotFoundError;
      expect(error).toBeInstanceOf(ToolNotFoundError);
      expect(error.message).toBe(
        "Unknown tool 'book_flight'. Available tools: add, book_hotel, greet, search_documents.",
      );
    });

    it('throws ToolValidationError before the policy is asked', async () => {
      const { policy, seen } = recordingPolicy();
      const func = jest.fn();
      const agent = new Agent({
        card,
        policy,
        tools: [new NativeTool({ name: 'book', description: 'Book', inputSchema: GUESTS, func })],
      });
      await expect(agent.callTool('book', { guests: 0 })).rejects.toThrow(ToolValidationError);
      await expect(agent.callTool('book', { guests: 0 })).rejects.toThrow(
        "Invalid arguments for tool 'book': guests: must be >= 1",
      );
      expect(seen).toHaveLength(0);
      expect(func).not.toHaveBeenCalled();
    });

    it('shows the policy the validated, coerced arguments and runs the tool with them', async () => {
      const { policy, seen } = recordingPolicy();
      const agent = new Agent({ card, policy, toolsets: [new TravelTools()] });
      await expect(agent.callTool('add', { a: '2', b: 3 })).resolves.toBe(5);
      expect(seen[0].payload).toEqual({ arguments: { a: 2, b: 3 } });
      expect(seen[0].kind).toBe('tool.call');
      expect(seen[0].description).toBe('Add two integers');
    });

    it('passes DTO instances to the method when no builder changed the arguments', async () => {
      const tools = new TravelTools();
      const agent = new Agent({ card, toolsets: [tools] });
      await expect(
        agent.callTool('book_hotel', { booking: { location: 'Athens', guests: '2' } }),
      ).resolves.toEqual({ id: 'BK-1', guests: 2 });
      expect(tools.bookings.saved[0]).toBeInstanceOf(BookingRequest);
    });

    it('returns falsy results unchanged', async () => {
      const agent = new Agent({ card });
      for (const [name, value] of [
        ['zero', 0],
        ['empty', ''],
        ['no', false],
        ['nothing', null],
      ] as const) {
        agent.tool({ name, description: name }, () => value);
        await expect(agent.callTool(name)).resolves.toBe(value);
      }
    });

    it('re-validates arguments a builder rewrote, and runs the tool with them', async () => {
      const { policy, seen } = recordingPolicy();
      const func = jest.fn((args: Record<string, unknown>) => args.guests);
      const agent = new Agent({ card, policy });
      agent.addTool(
        new NativeTool({
          name: 'book',
          description: 'Book',
          inputSchema: GUESTS,
          func,
          actionBuilder: (args) =>
            new RunAction({
              kind: 'tool.call',
              name: 'book',
              payload: { arguments: { guests: String((args.guests as number) + 1) } },
            }),
        }),
      );
      await expect(agent.callTool('book', { guests: 1 })).resolves.toBe(2);
      expect(seen[0].payload).toEqual({ arguments: { guests: 2 } });
      expect(func).toHaveBeenCalledTimes(1);
    });

    it('throws ToolValidationError when a builder rewrites arguments into an invalid shape, and the tool does not run', async () => {
      const func = jest.fn();
      const agent = new Agent({ card });
      agent.addTool(
        new NativeTool({
          name: 'book',
          description: 'Book',
          inputSchema: GUESTS,
          func,
          actionBuilder: () =>
            new RunAction({ kind: 'tool.call', name: 'book', payload: { arguments: { guests: -5 } } }),
        }),
      );
      await expect(agent.callTool('book', { guests: 1 })).rejects.toThrow(ToolValidationError);
      expect(func).not.toHaveBeenCalled();
    });

    it('throws ToolDefinitionError when a builder returns something other than a RunAction, and the tool does not run', async () => {
      const func = jest.fn();
      const agent = new Agent({ card });
      agent.addTool(
        new NativeTool({
          name: 'book',
          description: 'Book',
          func,
          actionBuilder: (() => ({ kind: 'tool.call' })) as never,
        }),
      );
      await expect(agent.callTool('book')).rejects.toThrow(ToolDefinitionError);
      await expect(agent.callTool('book')).rejects.toThrow(
        "The actionBuilder of tool 'book' must return a RunAction",
      );
      expect(func).not.toHaveBeenCalled();
    });

    it('hands preview artifacts from the builder to the approval handler', async () => {
      const requests: ApprovalRequest[] = [];
      const agent = new Agent({
        card,
        policy: new CapabilityPolicy({ 'mail.send': 'require_approval' }),
        approvalHandler: (request) => {
          requests.push(request);
          return true;
        },
      });
      agent.tool(
        {
          name: 'send_mail',
          description: 'Send a mail',
          inputSchema: { to: 'str' },
          capabilities: ['mail.send'],
          actionBuilder: (args) =>
            new RunAction({
              kind: 'tool.call',
              name: 'send_mail',
              payload: { arguments: args },
              artifacts: [{ kind: 'preview', content: `To: ${String(args.to)}` }],
            }),
        },
        () => 'sent',
      );
      await expect(agent.callTool('send_mail', { to: 'ada@example.com' })).resolves.toBe('sent');
      expect(requests[0].action.artifacts).toEqual([
        { kind: 'preview', content: 'To: ada@example.com', actionId: requests[0].action.actionId },
      ]);
      expect(requests[0].action.capabilities).toEqual(['mail.send']);
    });

    it('throws ActionPolicyError when the policy throws, and the tool does not run', async () => {
      const func = jest.fn();
      const policy: Policy = {
        name: 'flaky',
        evaluate: () => {
          throw new Error('rules store unavailable');
        },
      };
      const agent = new Agent({
        card,
        policy,
        tools: [new NativeTool({ name: 'work', description: 'Work', func })],
      });
      await expect(agent.callTool('work')).rejects.toThrow(ActionPolicyError);
      await expect(agent.callTool('work')).rejects.toThrow(
        "Policy 'flaky' failed while evaluating tool 'work' (rules store unavailable)",
      );
      expect(func).not.toHaveBeenCalled();
    });

    it('awaits an async custom policy', async () => {
      const agent = new Agent({
        card,
        policy: { evaluate: async () => new PolicyDecision({ effect: 'deny', reason: 'async says no' }) },
        tools: [new NativeTool({ name: 'work', description: 'Work', func: () => 1 })],
      });
      await expect(agent.callTool('work')).rejects.toThrow(ActionDeniedError);
      await expect(agent.callTool('work')).rejects.toThrow("Action 'work' denied: async says no");
    });

    it('fails closed with ApprovalRequiredError when approval is needed and no handler is set', async () => {
      const func = jest.fn();
      const agent = new Agent({
        card,
        policy: new CapabilityPolicy({ 'records.write': 'require_approval' }),
      });
      agent.tool({ name: 'write', description: 'Write', capabilities: ['records.write'] }, func);
      await expect(agent.callTool('write')).rejects.toThrow(ApprovalRequiredError);
      expect(func).not.toHaveBeenCalled();
    });

    it('validates and runs a structural BaseTool that has no validateArgs or prepareAction, handing it the signal', async () => {
      const seen: ToolCallOptions[] = [];
      const structural: BaseTool = {
        name: 'remote',
        description: '',
        inputSchema: {
          type: 'object',
          properties: { n: { type: 'integer' } },
          required: ['n'],
          additionalProperties: false,
        },
        outputSchema: null,
        tags: null,
        examples: null,
        capabilities: ['remote.call'],
        call: async (args, options) => {
          seen.push(options ?? {});
          return (args?.n as number) * 2;
        },
      };
      const { policy, seen: actions } = recordingPolicy();
      const agent = new Agent({ card, policy, tools: [structural] });
      await expect(agent.callTool('remote', { n: '21' })).resolves.toBe(42);
      await expect(agent.callTool('remote', { n: 'x' })).rejects.toThrow(ToolValidationError);
      expect(actions[0].capabilities).toEqual(['remote.call']);
      expect(actions[0].description).toBeNull();
      expect(seen[0].signal).toBeInstanceOf(AbortSignal);
      expect(seen[0].context).toBeInstanceOf(RunContext);
      expect(agent.card.skills[0].description).toBe('Tool: remote');
    });
  });

  describe('through Agent.callToolInContext', () => {
    it('counts calls against budget.maxToolCalls and refuses the one that would exceed it before it runs', async () => {
      const func = jest.fn(() => 'ok');
      const agent = new Agent({ card, tools: [new NativeTool({ name: 'work', description: 'Work', func })] });
      const context = new RunContext({ budget: { maxToolCalls: 2 } });
      await agent.callToolInContext('work', context);
      await agent.callToolInContext('work', context);
      const error = (await agent
        .callToolInContext('work', context)
        .catch((caught: unknown) => caught)) as BudgetExceededError;
      expect(error).toBeInstanceOf(BudgetExceededError);
      expect(error.message).toBe(
        "The run's budget allows 2 tool calls (maxToolCalls); calling tool 'work' would exceed it. Raise budget.maxToolCalls or do less in one run.",
      );
      expect(func).toHaveBeenCalledTimes(2);
      expect(context.usage.toolCalls).toBe(2);
    });

    it('does not count denied or invalid calls, nor ask approvers once the budget is spent', async () => {
      const approvalHandler = jest.fn(() => true);
      const agent = new Agent({
        card,
        policy: new CapabilityPolicy({ 'x.deny': 'deny', 'x.ask': 'ask' }),
        approvalHandler,
      });
      agent.tool({ name: 'denied', description: 'd', capabilities: ['x.deny'] }, () => 1);
      agent.tool({ name: 'asked', description: 'a', capabilities: ['x.ask'] }, () => 2);
      agent.tool({ name: 'typed', description: 't', inputSchema: { n: 'int' } }, () => 3);
      const context = new RunContext({ budget: { maxToolCalls: 1 } });
      await expect(agent.callToolInContext('denied', context)).rejects.toThrow(ActionDeniedError);
      await expect(agent.callToolInContext('typed', context, { n: 'x' })).rejects.toThrow(
        ToolValidationError,
      );
      expect(context.usage.toolCalls).toBe(0);
      await expect(agent.callToolInContext('asked', context)).resolves.toBe(2);
      await expect(agent.callToolInContext('asked', context)).rejects.toThrow(BudgetExceededError);
      expect(approvalHandler).toHaveBeenCalledTimes(1);
    });

    it('hands the context and its signal to a @Context parameter', async () => {
      const agent = new Agent({ card, toolsets: [new TravelTools()] });
      const context = new RunContext({ runId: 'run-ctx' });
      await expect(
        agent.callToolInContext('search_documents', context, { query: 'hotels' }),
      ).resolves.toMatchObject({ runId: 'run-ctx', isDto: true });
    });

    it('keeps the result on ToolCancelledError when the run was canceled while the tool finished', async () => {
      const agent = new Agent({ card });
      agent.tool(
        { name: 'commit', description: 'Commit', inputSchema: {} },
        (_args: Record<string, unknown>, context: RunContext) => {
          context.cancel('canceled during commit');
          return { committed: true };
        },
      );
      const error = (await agent
        .callToolInContext('commit', new RunContext())
        .catch((caught: unknown) => caught)) as ToolCancelledError;
      expect(error).toBeInstanceOf(ToolCancelledError);
      expect(error.hasResult).toBe(true);
      expect(error.result).toEqual({ committed: true });
    });
  });
});
