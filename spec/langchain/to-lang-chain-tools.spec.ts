import { ToolMessage } from '@langchain/core/messages';
import { createAgent } from 'langchain';
import { ActionDeniedError, RunContext, ToolInputError, ToolValidationError } from '../../lib';
import { toLangChainTools } from '../../lib/langchain';
import { buildBridgeAgent } from '../fixtures/bridges/bridge-agent';
import { ScriptedChatModel } from './scripted-chat-model';

/** The tool messages the model was shown in its n-th call. */
function toolMessagesSeen(model: ScriptedChatModel, call: number): ToolMessage[] {
  return model.log.calls[call].filter((message): message is ToolMessage => ToolMessage.isInstance(message));
}

function parseContent(message: ToolMessage): unknown {
  return JSON.parse(String(message.content));
}

describe('toLangChainTools', () => {
  describe('with createAgent', () => {
    it('runs a call through the agent, coercing "3" to 3, and gives the result to the model', async () => {
      const { agent, log } = buildBridgeAgent();
      const model = new ScriptedChatModel([[{ id: 'c1', name: 'add', args: { a: '3', b: 4 } }], 'seven']);

      const result = await createAgent({ model, tools: toLangChainTools(agent) }).invoke({
        messages: [{ role: 'user', content: 'add' }],
      });

      expect(result.messages.at(-1)?.content).toBe('seven');
      expect(log.calls).toEqual([{ tool: 'add', args: { a: 3, b: 4 } }]);
      const [seen] = toolMessagesSeen(model, 1);
      expect(seen.status).toBe('success');
      expect(parseContent(seen)).toEqual({ sum: 7 });
    });

    it("shows the model each tool's own JSON Schema", async () => {
      const { agent } = buildBridgeAgent();
      const model = new ScriptedChatModel(['nothing to do']);

      await createAgent({ model, tools: toLangChainTools(agent) }).invoke({
        messages: [{ role: 'user', content: 'hi' }],
      });

      expect(Object.keys(model.log.tools).sort()).toEqual([
        'add',
        'explode',
        'publish',
        'wait_for_cancel',
        'wipe',
      ]);
      expect(model.log.tools.add).toEqual({
        title: 'addInput',
        type: 'object',
        properties: { a: { type: 'integer' }, b: { type: 'integer' }, note: { type: 'string' } },
        required: ['a', 'b'],
        additionalProperties: false,
      });
    });

    it('gives the model every validation problem as an error ToolMessage, without LangChain pre-validating', async () => {
      const { agent, log } = buildBridgeAgent();
      const model = new ScriptedChatModel([[{ id: 'c1', name: 'add', args: { a: 'x', note: 5 } }], 'sorry']);

      await createAgent({ model, tools: toLangChainTools(agent) }).invoke({
        messages: [{ role: 'user', content: 'add' }],
      });

      expect(log.calls).toEqual([]);
      const [seen] = toolMessagesSeen(model, 1);
      expect(seen.status).toBe('error');
      expect(seen.tool_call_id).toBe('c1');
      const problem = parseContent(seen) as {
        error: { type: string; code: string; issues: { path: string }[] };
      };
      expect(problem.error).toMatchObject({ type: 'invalid_arguments', code: 'TOOL_VALIDATION' });
      expect(problem.error.issues.map((issue) => issue.path).sort()).toEqual(['a', 'b', 'note']);
    });

    it('tells the model about a denial in an error ToolMessage', async () => {
      const { agent, log } = buildBridgeAgent();
      const model = new ScriptedChatModel([[{ id: 'c1', name: 'wipe', args: {} }], 'ok']);

      await createAgent({ model, tools: toLangChainTools(agent) }).invoke({
        messages: [{ role: 'user', content: 'wipe' }],
      });

      expect(log.calls).toEqual([]);
      const [seen] = toolMessagesSeen(model, 1);
      expect(seen.status).toBe('error');
      expect(parseContent(seen)).toMatchObject({ error: { type: 'denied', code: 'ACTION_DENIED' } });
    });

    it("leaves a tool's own error to LangChain's tool error handling", async () => {
      const { agent } = buildBridgeAgent();
      const model = new ScriptedChatModel([[{ id: 'c1', name: 'explode', args: {} }], 'ok']);

      await createAgent({ model, tools: toLangChainTools(agent) }).invoke({
        messages: [{ role: 'user', content: 'go' }],
      });

      const [seen] = toolMessagesSeen(model, 1);
      expect(seen.status).toBe('error');
      expect(String(seen.content)).toContain('the fuse was lit');
    });

    it("cancels the running call's run context when the run's signal aborts", async () => {
      const { agent, log } = buildBridgeAgent();
      const model = new ScriptedChatModel([[{ id: 'c1', name: 'wait_for_cancel', args: {} }], 'never']);
      const controller = new AbortController();

      const running = createAgent({ model, tools: toLangChainTools(agent) }).invoke(
        { messages: [{ role: 'user', content: 'wait' }] },
        { signal: controller.signal },
      );
      await log.waiting;
      controller.abort(new Error('user pressed stop'));

      await expect(running).rejects.toThrow();
      expect(log.cancellation).toMatchObject({ started: true, canceled: true, reason: 'user pressed stop' });
      expect(model.log.calls).toHaveLength(1);
    });
  });

  describe('invoke', () => {
    it('returns the raw result for plain arguments, accepting null for an optional field', async () => {
      const { agent, log } = buildBridgeAgent();
      const add = toLangChainTools(agent).find((tool) => tool.name === 'add');

      await expect(add?.invoke({ a: '3', b: 4, note: null })).resolves.toEqual({ sum: 7 });
      expect(log.calls).toEqual([{ tool: 'add', args: { a: 3, b: 4 } }]);
    });

    it('throws the ToolValidationError for invalid plain arguments', async () => {
      const { agent } = buildBridgeAgent();
      const add = toLangChainTools(agent).find((tool) => tool.name === 'add');

      const error = await add?.invoke({ a: 'x' }).catch((caught: unknown) => caught);

      expect(error).toBeInstanceOf(ToolValidationError);
      expect((error as ToolValidationError).issues.map((issue) => issue.path).sort()).toEqual(['a', 'b']);
    });

    it('answers a tool call with a ToolMessage, an error one for a denial', async () => {
      const { agent } = buildBridgeAgent();
      const tools = toLangChainTools(agent);
      const add = tools.find((tool) => tool.name === 'add');
      const wipe = tools.find((tool) => tool.name === 'wipe');

      const ok: unknown = await add?.invoke({
        id: 'c1',
        name: 'add',
        args: { a: 1, b: 2 },
        type: 'tool_call',
      });
      const denied: unknown = await wipe?.invoke({ id: 'c2', name: 'wipe', args: {}, type: 'tool_call' });

      expect(ok).toBeInstanceOf(ToolMessage);
      expect((ok as ToolMessage).status).toBe('success');
      expect(parseContent(ok as ToolMessage)).toEqual({ sum: 3 });
      expect((denied as ToolMessage).status).toBe('error');
      expect(parseContent(denied as ToolMessage)).toMatchObject({ error: { type: 'denied' } });
    });

    it('throws ActionDeniedError for a denied call with plain arguments', async () => {
      const { agent } = buildBridgeAgent();
      const wipe = toLangChainTools(agent).find((tool) => tool.name === 'wipe');

      await expect(wipe?.invoke({})).rejects.toBeInstanceOf(ActionDeniedError);
    });

    it("counts every call against the given context's budget", async () => {
      const { agent } = buildBridgeAgent();
      const parent = new RunContext({ budget: { maxToolCalls: 5 } });
      const add = toLangChainTools(agent, { context: parent }).find((tool) => tool.name === 'add');

      await add?.invoke({ a: 1, b: 2 });
      await add?.invoke({ a: 3, b: 4 });

      expect(parent.usage.toolCalls).toBe(2);
    });
  });

  describe('options', () => {
    it('rejects a context that is neither a RunContext nor a factory', () => {
      const { agent } = buildBridgeAgent();
      expect(() => toLangChainTools(agent, { context: 'run-1' as unknown as RunContext })).toThrow(
        ToolInputError,
      );
      expect(() => toLangChainTools(agent, { context: 'run-1' as unknown as RunContext })).toThrow(
        /toLangChainTools\(\) must be a RunContext or a function/,
      );
    });
  });
});
