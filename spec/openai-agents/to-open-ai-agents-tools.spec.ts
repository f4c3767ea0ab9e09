import {
  Agent as OpenAIAgent,
  RunContext as AgentsRunContext,
  ToolCallError,
  run,
  setTracingDisabled,
} from '@openai/agents';
import { BudgetExceededError, RunContext, ToolCancelledError, ToolInputError } from '../../lib';
import { toOpenAIAgentsTools } from '../../lib/openai-agents';
import type { NonStrictToolNotice } from '../../lib/openai-agents';
import { buildBridgeAgent } from '../fixtures/bridges/bridge-agent';
import { ScriptedAgentsModel, functionOutputsSeen } from './scripted-agents-model';

// Runs stay on this machine: no trace export.
setTracingDisabled(true);

function parseOutput(output: unknown): unknown {
  const text = typeof output === 'string' ? output : (output as { text?: string }).text;
  return JSON.parse(String(text));
}

describe('toOpenAIAgentsTools', () => {
  describe('with run()', () => {
    it('runs a call through the agent, turning strict-mode nulls back into absent and coercing "3"', async () => {
      const { agent, log } = buildBridgeAgent();
      const model = new ScriptedAgentsModel([
        [{ callId: 'c1', name: 'add', arguments: { a: '3', b: 4, note: null } }],
        'seven',
      ]);

      const result = await run(
        new OpenAIAgent({ name: 'math', model, tools: toOpenAIAgentsTools(agent) }),
        'add',
      );

      expect(result.finalOutput).toBe('seven');
      expect(log.calls).toEqual([{ tool: 'add', args: { a: 3, b: 4 } }]);
      expect(parseOutput(functionOutputsSeen(model, 1).c1)).toEqual({ sum: 7 });
    });

    it('offers strict schemas: closed objects, every key required, optional keys nullable', async () => {
      const { agent } = buildBridgeAgent();
      const model = new ScriptedAgentsModel(['nothing to do']);

      await run(new OpenAIAgent({ name: 'math', model, tools: toOpenAIAgentsTools(agent) }), 'hi');

      const add = model.requests[0].tools.find((tool) => tool.type === 'function' && tool.name === 'add');
      expect(add).toMatchObject({
        type: 'function',
        name: 'add',
        description: 'Adds two integers.',
        strict: true,
      });
      const parameters = (add as { parameters: { required: string[]; additionalProperties: boolean } })
        .parameters;
      expect(parameters.required.sort()).toEqual(['a', 'b', 'note']);
      expect(parameters.additionalProperties).toBe(false);
    });

    it('gives every validation problem back to the model as Protolink JSON', async () => {
      const { agent, log } = buildBridgeAgent();
      const model = new ScriptedAgentsModel([
        [{ callId: 'c1', name: 'add', arguments: { a: 'x', b: null, note: 5 } }],
        'sorry',
      ]);

      await run(new OpenAIAgent({ name: 'math', model, tools: toOpenAIAgentsTools(agent) }), 'add');

      expect(log.calls).toEqual([]);
      const problem = parseOutput(functionOutputsSeen(model, 1).c1) as {
        error: { type: string; issues: { path: string }[] };
      };
      expect(problem.error.type).toBe('invalid_arguments');
      expect(problem.error.issues.map((issue) => issue.path).sort()).toEqual(['a', 'b', 'note']);
    });

    it("tells the model about denials and the tool's own errors instead of a generic message", async () => {
      const { agent } = buildBridgeAgent();
      const model = new ScriptedAgentsModel([
        [
          { callId: 'c1', name: 'wipe', arguments: {} },
          { callId: 'c2', name: 'explode', arguments: {} },
          { callId: 'c3', name: 'publish', arguments: { title: 'Hi' } },
        ],
        'ok',
      ]);

      await run(new OpenAIAgent({ name: 'ops', model, tools: toOpenAIAgentsTools(agent) }), 'go');

      const seen = functionOutputsSeen(model, 1);
      expect(parseOutput(seen.c1)).toMatchObject({ error: { type: 'denied', code: 'ACTION_DENIED' } });
      expect(parseOutput(seen.c2)).toMatchObject({
        error: { type: 'tool_error', message: "Tool 'explode' failed: the fuse was lit" },
      });
      expect(parseOutput(seen.c3)).toMatchObject({ error: { type: 'approval_required' } });
    });

    it("cancels the running call's run context when the run's signal aborts", async () => {
      const { agent, log } = buildBridgeAgent();
      const model = new ScriptedAgentsModel([
        [{ callId: 'c1', name: 'wait_for_cancel', arguments: {} }],
        'never',
      ]);
      const controller = new AbortController();

      const running = run(new OpenAIAgent({ name: 'w', model, tools: toOpenAIAgentsTools(agent) }), 'wait', {
        signal: controller.signal,
      });
      await log.waiting;
      controller.abort(new Error('user pressed stop'));

      await expect(running).rejects.toThrow();
      expect(log.cancellation).toMatchObject({ started: true, canceled: true, reason: 'user pressed stop' });
      expect(model.requests).toHaveLength(1);
    });

    it('ends the run with BudgetExceededError when the given context runs out of tool calls', async () => {
      const { agent, log } = buildBridgeAgent();
      const parent = new RunContext({ budget: { maxToolCalls: 1 } });
      const model = new ScriptedAgentsModel([
        [{ callId: 'c1', name: 'add', arguments: { a: 1, b: 1, note: null } }],
        [{ callId: 'c2', name: 'add', arguments: { a: 2, b: 2, note: null } }],
        'done',
      ]);
      const tools = toOpenAIAgentsTools(agent, { context: parent });

      const error: unknown = await run(new OpenAIAgent({ name: 'm', model, tools }), 'add twice').catch(
        (caught: unknown) => caught,
      );

      // The SDK wraps a tool failure that ends the run in its ToolCallError.
      expect(error).toBeInstanceOf(ToolCallError);
      expect((error as ToolCallError).error).toBeInstanceOf(BudgetExceededError);
      expect(log.calls).toHaveLength(1);
    });
  });

  describe('strict fallback', () => {
    it('offers a tool whose schema cannot be strict without strict mode, and says why', async () => {
      const { agent } = buildBridgeAgent();
      agent.tool(
        {
          name: 'label',
          description: 'Sets labels.',
          inputSchema: {
            type: 'object',
            properties: { labels: { type: 'object', additionalProperties: { type: 'string' } } },
            required: ['labels'],
          },
        },
        (args) => args.labels,
      );
      const notices: NonStrictToolNotice[] = [];
      const model = new ScriptedAgentsModel([
        [{ callId: 'c1', name: 'label', arguments: { labels: { team: 'core' } } }],
        'done',
      ]);

      const tools = toOpenAIAgentsTools(agent, { onNonStrict: (notice) => notices.push(notice) });
      await run(new OpenAIAgent({ name: 'l', model, tools }), 'label');

      expect(notices).toHaveLength(1);
      expect(notices[0].toolName).toBe('label');
      expect(notices[0].reason).toContain("Tool 'label'");
      const label = model.requests[0].tools.find((tool) => tool.type === 'function' && tool.name === 'label');
      expect(label).toMatchObject({ strict: false });
      expect(parseOutput(functionOutputsSeen(model, 1).c1)).toEqual({ team: 'core' });
    });

    it('offers every tool non-strict with strict: false, without notices', () => {
      const { agent } = buildBridgeAgent();
      const notices: NonStrictToolNotice[] = [];

      const tools = toOpenAIAgentsTools(agent, {
        strict: false,
        onNonStrict: (notice) => notices.push(notice),
      });

      expect(tools.every((tool) => tool.strict === false)).toBe(true);
      expect(notices).toEqual([]);
    });
  });

  describe('invoke', () => {
    it('runs a call with the JSON arguments the SDK hands over', async () => {
      const { agent } = buildBridgeAgent();
      const add = toOpenAIAgentsTools(agent).find((tool) => tool.name === 'add');

      await expect(add?.invoke(new AgentsRunContext(), '{"a":"3","b":4,"note":null}')).resolves.toEqual({
        sum: 7,
      });
    });

    it('returns the problem text for invalid arguments', async () => {
      const { agent } = buildBridgeAgent();
      const add = toOpenAIAgentsTools(agent).find((tool) => tool.name === 'add');

      const output = await add?.invoke(new AgentsRunContext(), '{"a":"x","b":1,"note":null}');

      expect(parseOutput(output)).toMatchObject({
        error: { type: 'invalid_arguments', code: 'TOOL_VALIDATION' },
      });
    });

    it('throws ToolCancelledError when the signal it is given is already aborted', async () => {
      const { agent } = buildBridgeAgent();
      const add = toOpenAIAgentsTools(agent).find((tool) => tool.name === 'add');
      const controller = new AbortController();
      controller.abort(new Error('gone'));

      await expect(
        add?.invoke(new AgentsRunContext(), '{"a":1,"b":2,"note":null}', { signal: controller.signal }),
      ).rejects.toBeInstanceOf(ToolCancelledError);
    });
  });

  describe('options', () => {
    it('rejects an onNonStrict that is not a function', () => {
      const { agent } = buildBridgeAgent();
      expect(() => toOpenAIAgentsTools(agent, { onNonStrict: 'warn' as unknown as () => void })).toThrow(
        ToolInputError,
      );
    });

    it('rejects a context that is neither a RunContext nor a factory', () => {
      const { agent } = buildBridgeAgent();
      expect(() => toOpenAIAgentsTools(agent, { context: 7 as unknown as RunContext })).toThrow(
        /toOpenAIAgentsTools\(\) must be a RunContext or a function/,
      );
    });
  });
});
