import 'reflect-metadata';
import { BudgetExceededError } from '../../lib/errors/budget-exceeded-error';
import { ToolCancelledError } from '../../lib/errors/tool-cancelled-error';
import { ToolInputError } from '../../lib/errors/tool-input-error';
import { ToolRuntimeError } from '../../lib/errors/tool-runtime-error';
import { runToolLoop } from '../../lib/llm/run-tool-loop';
import { ScriptedLLM } from '../../lib/llm/scripted-llm';
import type { LlmToolMessage } from '../../lib/llm/llm';
import type { ToolCallTrace, ToolLoopEvent } from '../../lib/llm/tool-loop-types';
import { RunContext } from '../../lib/runtime/run-context';
import { NativeTool } from '../../lib/tools/native-tool';
import { LoopCaller } from '../fixtures/llm/loop-caller';

const intPair = {
  type: 'object',
  properties: { a: { type: 'integer' }, b: { type: 'integer' } },
  required: ['a', 'b'],
};

function buildTools(overrides: { flaky?: () => unknown } = {}) {
  const ran: string[] = [];
  const tools = [
    new NativeTool({
      name: 'add',
      description: 'Add two integers',
      inputSchema: intPair,
      func: (args) => (ran.push('add'), args.a + args.b),
    }),
    new NativeTool({
      name: 'book_hotel',
      description: 'Book a hotel',
      capabilities: ['records.write'],
      inputSchema: {
        type: 'object',
        properties: { city: { type: 'string' }, guests: { type: 'integer', minimum: 1 } },
        required: ['city', 'guests'],
      },
      func: (args) => (ran.push('book_hotel'), `booked ${args.city} for ${args.guests}`),
    }),
    new NativeTool({
      name: 'delete_file',
      description: 'Delete a file',
      capabilities: ['files.delete'],
      func: () => ran.push('delete_file'),
    }),
    new NativeTool({
      name: 'wire_money',
      description: 'Send money',
      capabilities: ['payments.send'],
      func: () => ran.push('wire_money'),
    }),
    new NativeTool({
      name: 'flaky',
      description: 'Fails',
      inputSchema: { type: 'object', properties: { attempt: { type: 'integer' } } },
      func:
        overrides.flaky ??
        (() => {
          throw new Error('disk full');
        }),
    }),
  ];
  const caller = new LoopCaller(tools, { deny: ['files.delete'], requireApproval: ['payments.send'] });
  return { caller, ran };
}

const toolMessages = (llm: ScriptedLLM, call: number) =>
  llm.calls[call].messages.filter((message): message is LlmToolMessage => message.role === 'tool');
const parsed = (message: LlmToolMessage) => JSON.parse(message.content);

describe('runToolLoop', () => {
  describe('conversation', () => {
    it('runs a tool call, sends the result back and returns the final text with the trace', async () => {
      const { caller } = buildTools();
      const llm = new ScriptedLLM([
        {
          toolCalls: [{ id: 'c1', name: 'add', arguments: '{"a":2,"b":"3"}' }],
          usage: { inputTokens: 10, outputTokens: 5 },
        },
        { text: 'The sum is 5.', usage: { inputTokens: 20, outputTokens: 4 } },
      ]);
      const result = await runToolLoop(caller, 'What is 2 + 3?', { llm, system: 'Be brief.' });
      expect(result.text).toBe('The sum is 5.');
      expect(result.steps).toBe(2);
      expect(result.usage).toEqual({ inputTokens: 30, outputTokens: 9, llmCalls: 2, toolCalls: 1 });
      expect(result.toolCalls).toEqual([
        {
          step: 1,
          id: 'c1',
          name: 'add',
          arguments: '{"a":2,"b":"3"}',
          status: 'ok',
          result: 5,
          durationMs: expect.any(Number),
        },
      ]);
      expect(llm.calls[0]).toEqual({
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'What is 2 + 3?' },
        ],
        toolNames: ['add', 'book_hotel', 'delete_file', 'wire_money', 'flaky'],
      });
      expect(llm.calls[1].messages.slice(2)).toEqual([
        {
          role: 'assistant',
          content: null,
          toolCalls: [{ id: 'c1', name: 'add', arguments: '{"a":2,"b":"3"}' }],
        },
        { role: 'tool', toolCallId: 'c1', name: 'add', content: '5' },
      ]);
      expect(result.messages.at(-1)).toEqual({ role: 'assistant', content: 'The sum is 5.' });
    });

    it('continues a conversation from history and a message list', async () => {
      const { caller } = buildTools();
      const llm = new ScriptedLLM([{ text: 'Hi again.' }]);
      const history = [
        { role: 'user' as const, content: 'Hello' },
        { role: 'assistant' as const, content: 'Hello!' },
      ];
      const result = await runToolLoop(caller, [{ role: 'user', content: 'Again' }], { llm, history });
      expect(result).toMatchObject({ text: 'Hi again.', steps: 1, toolCalls: [] });
      expect(llm.calls[0].messages).toEqual([...history, { role: 'user', content: 'Again' }]);
    });

    it('returns an empty text when the model ends without any', async () => {
      const { caller } = buildTools();
      expect((await runToolLoop(caller, 'x', { llm: new ScriptedLLM([{}]) })).text).toBe('');
    });

    it('cuts long results to maxResultChars and says so', async () => {
      const caller = new LoopCaller([
        new NativeTool({ name: 'dump', description: 'Dump', func: () => 'x'.repeat(50) }),
      ]);
      const llm = new ScriptedLLM([{ toolCalls: [{ name: 'dump' }] }, { text: 'ok' }]);
      await runToolLoop(caller, 'dump', { llm, maxResultChars: 10 });
      expect(toolMessages(llm, 1)[0].content).toBe('xxxxxxxxxx… [truncated: 40 more characters]');
    });
  });

  describe('parallel tool calls', () => {
    it('runs the calls of one step concurrently and keeps their order in the trace', async () => {
      let arrived = 0;
      let release!: () => void;
      const bothStarted = new Promise<void>((resolve) => (release = resolve));
      const wait = (label: string) => async () => {
        arrived += 1;
        if (arrived === 2) release();
        await bothStarted;
        return label;
      };
      const caller = new LoopCaller([
        new NativeTool({ name: 'first', description: 'First', func: wait('one') }),
        new NativeTool({ name: 'second', description: 'Second', func: wait('two') }),
      ]);
      const llm = new ScriptedLLM([
        {
          toolCalls: [
            { id: 'a', name: 'first' },
            { id: 'b', name: 'second' },
          ],
        },
        { text: 'done' },
      ]);
      const result = await runToolLoop(caller, 'both', { llm });
      expect(result.toolCalls.map((call) => [call.id, call.result])).toEqual([
        ['a', 'one'],
        ['b', 'two'],
      ]);
      expect(toolMessages(llm, 1).map((message) => message.toolCallId)).toEqual(['a', 'b']);
    });

    it('runs them one after another when parallelToolCalls is false', async () => {
      const order: string[] = [];
      const step = (label: string) => async () => {
        order.push(`start ${label}`);
        await new Promise((resolve) => setImmediate(resolve));
        order.push(`end ${label}`);
      };
      const caller = new LoopCaller([
        new NativeTool({ name: 'first', description: 'First', func: step('1') }),
        new NativeTool({ name: 'second', description: 'Second', func: step('2') }),
      ]);
      const llm = new ScriptedLLM([{ toolCalls: [{ name: 'first' }, { name: 'second' }] }, { text: 'done' }]);
      await runToolLoop(caller, 'both', { llm, parallelToolCalls: false });
      expect(order).toEqual(['start 1', 'end 1', 'start 2', 'end 2']);
    });
  });

  describe('problems returned to the model', () => {
    it('returns a validation error with its paths, and the model repairs the call', async () => {
      const { caller, ran } = buildTools();
      const llm = new ScriptedLLM([
        { toolCalls: [{ id: 'bad', name: 'book_hotel', arguments: { city: 'Oslo', guests: 0 } }] },
        { toolCalls: [{ id: 'good', name: 'book_hotel', arguments: { city: 'Oslo', guests: 2 } }] },
        { text: 'Booked.' },
      ]);
      const result = await runToolLoop(caller, 'Book Oslo', { llm });
      const [problem] = toolMessages(llm, 1);
      expect(problem.isError).toBe(true);
      expect(parsed(problem)).toEqual({
        error: {
          type: 'invalid_arguments',
          code: 'TOOL_VALIDATION',
          message:
            "Invalid arguments for tool 'book_hotel': guests: must be >= 1. Fix the listed fields and call 'book_hotel' again.",
          issues: [{ path: 'guests', message: 'must be >= 1' }],
        },
      });
      expect(result.toolCalls.map((call) => call.status)).toEqual(['error', 'ok']);
      expect(ran).toEqual(['book_hotel']);
      expect(result.text).toBe('Booked.');
    });

    it('returns malformed JSON arguments as a problem without calling the tool', async () => {
      const { caller } = buildTools();
      const llm = new ScriptedLLM([
        { toolCalls: [{ name: 'add', arguments: '{"a": 1,' }] },
        { text: 'sorry' },
      ]);
      const result = await runToolLoop(caller, 'x', { llm });
      expect(caller.calls).toEqual([]);
      expect(parsed(toolMessages(llm, 1)[0]).error).toMatchObject({
        type: 'invalid_arguments',
        code: 'INVALID_JSON',
      });
      expect(parsed(toolMessages(llm, 1)[0]).error.message).toMatch(
        /^The arguments are not valid JSON \(.+\)\. Send one JSON object, e\.g\. \{"name": "value"\}\.$/,
      );
      expect(result.usage.toolCalls).toBe(0);
    });

    it('returns non-object arguments as a problem', async () => {
      const { caller } = buildTools();
      const llm = new ScriptedLLM([{ toolCalls: [{ name: 'add', arguments: '[1,2]' }] }, { text: 'sorry' }]);
      await runToolLoop(caller, 'x', { llm });
      expect(parsed(toolMessages(llm, 1)[0]).error.message).toBe(
        'The arguments must be one JSON object, got an array.',
      );
    });

    it('returns an unknown tool name with the list of tools', async () => {
      const { caller } = buildTools();
      const llm = new ScriptedLLM([
        { toolCalls: [{ name: 'multiply', arguments: {} }] },
        { text: 'no such tool' },
      ]);
      await runToolLoop(caller, 'x', { llm });
      expect(parsed(toolMessages(llm, 1)[0]).error).toEqual({
        type: 'unknown_tool',
        code: 'TOOL_NOT_FOUND',
        message:
          "There is no tool named 'multiply'. Call one of: add, book_hotel, delete_file, wire_money, flaky.",
        availableTools: ['add', 'book_hotel', 'delete_file', 'wire_money', 'flaky'],
      });
      expect(caller.calls).toEqual([]);
    });

    it('returns policy denials and missing approvals without running the tools', async () => {
      const { caller, ran } = buildTools();
      const llm = new ScriptedLLM([
        { toolCalls: [{ name: 'delete_file' }, { name: 'wire_money' }] },
        { text: 'I cannot do that.' },
      ]);
      const result = await runToolLoop(caller, 'clean up and pay', { llm });
      const [denied, approval] = toolMessages(llm, 1).map(parsed);
      expect(denied.error).toEqual({
        type: 'denied',
        code: 'ACTION_DENIED',
        message:
          "Policy denied 'delete_file': capability files.delete is denied. The call did not run; do not retry it.",
      });
      expect(approval.error).toEqual({
        type: 'approval_required',
        code: 'APPROVAL_REQUIRED',
        message:
          "Tool 'wire_money' needs approval and no approval handler is configured. The call did not run; do not retry it, tell the user it needs approval.",
      });
      expect(ran).toEqual([]);
      expect(result.text).toBe('I cannot do that.');
    });

    it('returns a tool failure as a problem', async () => {
      const { caller } = buildTools();
      const llm = new ScriptedLLM([
        { toolCalls: [{ name: 'flaky', arguments: { attempt: 1 } }] },
        { text: 'It failed.' },
      ]);
      await runToolLoop(caller, 'x', { llm });
      expect(parsed(toolMessages(llm, 1)[0]).error).toEqual({
        type: 'tool_error',
        code: 'TOOL_ERROR',
        message: "Tool 'flaky' failed: disk full",
      });
    });
  });

  describe('bounded retries', () => {
    it('warns once about a repeated failing call without running it, then stops the loop with the trace', async () => {
      const { caller } = buildTools();
      const same = { name: 'flaky', arguments: { attempt: 1 } };
      const llm = new ScriptedLLM([
        { toolCalls: [same] },
        { toolCalls: [same] },
        { toolCalls: [same] },
        { text: 'never' },
      ]);
      const error = await runToolLoop(caller, 'x', { llm }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(BudgetExceededError);
      expect((error as BudgetExceededError).message).toBe(
        "The model repeated the same failing call to 'flaky' after being told it failed; the loop stopped. Last problem: Tool 'flaky' failed: disk full",
      );
      expect((error as BudgetExceededError).limit).toBe('repeatedFailedCalls');
      expect(((error as BudgetExceededError).trace as ToolCallTrace[]).map((call) => call.status)).toEqual([
        'error',
        'skipped',
        'skipped',
      ]);
      expect(caller.calls).toHaveLength(1);
      expect(parsed(toolMessages(llm, 2)[1]).error.type).toBe('repeated_call');
      expect(llm.remaining).toBe(1);
    });

    it('stops when one tool keeps failing past maxToolRetries', async () => {
      const { caller } = buildTools();
      const llm = new ScriptedLLM(
        [1, 2, 3].map((attempt) => ({ toolCalls: [{ name: 'flaky', arguments: { attempt } }] })),
      );
      const error = (await runToolLoop(caller, 'x', { llm, maxToolRetries: 2 }).catch(
        (caught: unknown) => caught,
      )) as BudgetExceededError;
      expect(error).toBeInstanceOf(BudgetExceededError);
      expect(error.message).toBe(
        "Calls to 'flaky' failed 3 times in a row (maxToolRetries is 2); the loop stopped. Last problem: Tool 'flaky' failed: disk full",
      );
      expect(error).toMatchObject({ limit: 'maxToolRetries', maximum: 2, used: 3 });
      expect((error.trace as ToolCallTrace[]).map((call) => call.arguments)).toEqual([
        { attempt: 1 },
        { attempt: 2 },
        { attempt: 3 },
      ]);
    });

    it('resets the failure count after a success', async () => {
      let calls = 0;
      const { caller } = buildTools({
        flaky: () => {
          calls += 1;
          if (calls === 2) return 'fine';
          throw new Error('disk full');
        },
      });
      const llm = new ScriptedLLM([
        ...[1, 2, 3, 4].map((attempt) => ({ toolCalls: [{ name: 'flaky', arguments: { attempt } }] })),
        { text: 'done' },
      ]);
      const result = await runToolLoop(caller, 'x', { llm, maxToolRetries: 2 });
      expect(result.toolCalls.map((call) => call.status)).toEqual(['error', 'ok', 'error', 'error']);
    });
  });

  describe('budget', () => {
    it('stops at maxSteps with the trace', async () => {
      const { caller } = buildTools();
      const llm = new ScriptedLLM(
        [1, 2, 3].map((a) => ({ toolCalls: [{ name: 'add', arguments: { a, b: 1 } }] })),
      );
      const error = (await runToolLoop(caller, 'x', { llm, maxSteps: 2 }).catch(
        (caught: unknown) => caught,
      )) as BudgetExceededError;
      expect(error).toBeInstanceOf(BudgetExceededError);
      expect(error.message).toBe(
        'The model was still calling tools after 2 steps (maxSteps); the loop stopped. Raise maxSteps or simplify the task.',
      );
      expect(error).toMatchObject({ limit: 'maxSteps', maximum: 2, used: 2 });
      expect((error.trace as ToolCallTrace[]).map((call) => call.result)).toEqual([2, 3]);
      expect(llm.calls).toHaveLength(2);
    });

    it('charges steps and model calls on the context, and stops at budget.maxLlmCalls', async () => {
      const { caller } = buildTools();
      const context = new RunContext({ budget: { maxLlmCalls: 1 } });
      const llm = new ScriptedLLM([
        { toolCalls: [{ name: 'add', arguments: { a: 1, b: 1 } }] },
        { text: 'never' },
      ]);
      const error = (await runToolLoop(caller, 'x', { llm, context }).catch(
        (caught: unknown) => caught,
      )) as BudgetExceededError;
      expect(error).toBeInstanceOf(BudgetExceededError);
      expect(error.message).toBe(
        "The run's budget allows 1 llm calls (maxLlmCalls); another model call would exceed it. Raise budget.maxLlmCalls or do less in one run.",
      );
      expect(error.limit).toBe('maxLlmCalls');
      expect((error.trace as ToolCallTrace[]).map((call) => call.name)).toEqual(['add']);
      expect(context.usage).toEqual({ toolCalls: 1, steps: 2, llmCalls: 1 });
    });

    it('stops at budget.maxSteps of the context', async () => {
      const { caller } = buildTools();
      const context = new RunContext({ budget: { maxSteps: 1 } });
      const llm = new ScriptedLLM([
        { toolCalls: [{ name: 'add', arguments: { a: 1, b: 1 } }] },
        { text: 'never' },
      ]);
      await expect(runToolLoop(caller, 'x', { llm, context })).rejects.toMatchObject({
        name: 'BudgetExceededError',
        limit: 'maxSteps',
        maximum: 1,
      });
    });

    it('stops when parallel calls exceed budget.maxToolCalls, with the calls that ran in the trace', async () => {
      const { caller, ran } = buildTools();
      const context = new RunContext({ budget: { maxToolCalls: 1 } });
      const llm = new ScriptedLLM([
        {
          toolCalls: [
            { name: 'add', arguments: { a: 1, b: 1 } },
            { name: 'add', arguments: { a: 2, b: 2 } },
          ],
        },
        { text: 'never' },
      ]);
      const error = (await runToolLoop(caller, 'x', { llm, context }).catch(
        (caught: unknown) => caught,
      )) as BudgetExceededError;
      expect(error).toBeInstanceOf(BudgetExceededError);
      expect(error.message).toBe(
        "The run's budget allows 1 tool calls (maxToolCalls); calling tool 'add' would exceed it. Raise budget.maxToolCalls or do less in one run.",
      );
      expect((error.trace as ToolCallTrace[]).map((call) => call.status)).toEqual(['ok', 'error']);
      expect(ran).toEqual(['add']);
      expect(llm.calls).toHaveLength(1);
    });
  });

  describe('cancellation', () => {
    it('stops before the first model call when the context is already canceled', async () => {
      const { caller } = buildTools();
      const context = new RunContext({ runId: 'run-1' });
      context.cancel('user left');
      const llm = new ScriptedLLM([{ text: 'never' }]);
      await expect(runToolLoop(caller, 'x', { llm, context })).rejects.toThrow(
        new ToolCancelledError('Run run-1 was canceled (user left).'),
      );
      expect(llm.calls).toHaveLength(0);
    });

    it('stops mid-loop when a tool cancels the run, and makes no further model call', async () => {
      const context = new RunContext({ runId: 'run-2' });
      const caller = new LoopCaller([
        new NativeTool({
          name: 'stop_all',
          description: 'Stops',
          func: () => (context.cancel('stop requested'), 'stopped'),
        }),
      ]);
      const llm = new ScriptedLLM([{ toolCalls: [{ name: 'stop_all' }] }, { text: 'never' }]);
      const error = (await runToolLoop(caller, 'x', { llm, context }).catch(
        (caught: unknown) => caught,
      )) as ToolCancelledError;
      expect(error).toBeInstanceOf(ToolCancelledError);
      expect(error).toMatchObject({ hasResult: true, result: 'stopped' });
      expect(llm.calls).toHaveLength(1);
    });

    it('stops at once when the run is canceled while the model is answering, even if the model ignores the signal', async () => {
      const context = new RunContext({ runId: 'run-3' });
      const { caller } = buildTools();
      const llm = new ScriptedLLM([
        () => {
          setImmediate(() => context.cancel('timeout'));
          return new Promise(() => undefined);
        },
      ]);
      const events: ToolLoopEvent[] = [];
      await expect(
        runToolLoop(caller, 'x', { llm, context, onEvent: (event) => events.push(event) }),
      ).rejects.toThrow('Run run-3 was canceled (timeout) while the model was answering.');
      expect(events.map((event) => event.type)).toEqual(['llm-call-start', 'llm-call-error']);
    });

    it('stops when the outer signal aborts', async () => {
      const controller = new AbortController();
      const context = new RunContext({ runId: 'run-4', signal: controller.signal });
      const caller = new LoopCaller([
        new NativeTool({
          name: 'abort',
          description: 'Aborts',
          func: () => controller.abort('caller gave up'),
        }),
      ]);
      const llm = new ScriptedLLM([{ toolCalls: [{ name: 'abort' }] }, { text: 'never' }]);
      await expect(runToolLoop(caller, 'x', { llm, context })).rejects.toBeInstanceOf(ToolCancelledError);
      expect(llm.calls).toHaveLength(1);
    });
  });

  describe('telemetry', () => {
    it('emits llm-call-start and llm-call-end for each model call, and ignores a listener that throws', async () => {
      const { caller } = buildTools();
      const context = new RunContext({ runId: 'run-t' });
      const llm = new ScriptedLLM(
        [
          {
            toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }],
            usage: { inputTokens: 7, outputTokens: 3 },
          },
          { text: 'ok' },
        ],
        { model: 'test-model' },
      );
      const events: ToolLoopEvent[] = [];
      await runToolLoop(caller, 'x', {
        llm,
        context,
        onEvent: (event) => {
          events.push(event);
          throw new Error('listener bug');
        },
      });
      expect(events).toEqual([
        {
          type: 'llm-call-start',
          step: 1,
          provider: 'scripted',
          model: 'test-model',
          runId: 'run-t',
          messageCount: 1,
          toolCount: 5,
        },
        {
          type: 'llm-call-end',
          step: 1,
          provider: 'scripted',
          model: 'test-model',
          runId: 'run-t',
          durationMs: expect.any(Number),
          usage: { inputTokens: 7, outputTokens: 3 },
          toolCallCount: 1,
          finishReason: 'tool_calls',
        },
        {
          type: 'llm-call-start',
          step: 2,
          provider: 'scripted',
          model: 'test-model',
          runId: 'run-t',
          messageCount: 3,
          toolCount: 5,
        },
        {
          type: 'llm-call-end',
          step: 2,
          provider: 'scripted',
          model: 'test-model',
          runId: 'run-t',
          durationMs: expect.any(Number),
          toolCallCount: 0,
          finishReason: 'stop',
        },
      ]);
    });

    it('emits llm-call-error and rethrows when the model fails', async () => {
      const { caller } = buildTools();
      const failure = new ToolRuntimeError('OpenAI answered HTTP 503.', {
        provider: 'openai',
        status: 503,
        retryable: true,
      });
      const events: ToolLoopEvent[] = [];
      await expect(
        runToolLoop(caller, 'x', { llm: new ScriptedLLM([failure]), onEvent: (event) => events.push(event) }),
      ).rejects.toBe(failure);
      expect(events[1]).toMatchObject({ type: 'llm-call-error', step: 1, error: failure });
    });
  });

  describe('options', () => {
    it('rejects a missing model', async () => {
      const { caller } = buildTools();
      await expect(runToolLoop(caller, 'x', {} as never)).rejects.toThrow(
        new ToolInputError(
          'runToolLoop() needs { llm }: a model such as new OpenAIChatLLM({ model }) or a ScriptedLLM.',
        ),
      );
    });

    it('rejects a prompt that is neither text nor messages', async () => {
      const { caller } = buildTools();
      await expect(runToolLoop(caller, 42 as never, { llm: new ScriptedLLM([]) })).rejects.toThrow(
        new ToolInputError(
          'runToolLoop() needs a prompt: a string or a list of messages ({ role, content }).',
        ),
      );
    });

    it('rejects a maxSteps below 1', async () => {
      const { caller } = buildTools();
      await expect(runToolLoop(caller, 'x', { llm: new ScriptedLLM([]), maxSteps: 0 })).rejects.toThrow(
        new ToolInputError('maxSteps must be an integer >= 1, got 0.'),
      );
    });
  });
});
