import { ToolCancelledError } from '../../lib/errors/tool-cancelled-error';
import { ToolRuntimeError } from '../../lib/errors/tool-runtime-error';
import { ScriptedLLM } from '../../lib/llm/scripted-llm';
import { structuralTool } from '../fixtures/llm/llm-tool-corpus';

const ask = (llm: ScriptedLLM, signal?: AbortSignal) =>
  llm.generate({ messages: [{ role: 'user', content: 'Hi' }], tools: [structuralTool('ping')], signal });

describe('ScriptedLLM', () => {
  describe('generate', () => {
    it('answers from the script in order, filling call ids and finish reasons', async () => {
      const llm = new ScriptedLLM([
        { toolCalls: [{ name: 'ping' }, { id: 'mine', name: 'ping', arguments: '{"x":1}' }] },
        { text: 'done', usage: { inputTokens: 1, outputTokens: 2 } },
      ]);
      expect(await ask(llm)).toEqual({
        text: null,
        toolCalls: [
          { id: 'call_1_1', name: 'ping', arguments: {} },
          { id: 'mine', name: 'ping', arguments: '{"x":1}' },
        ],
        finishReason: 'tool_calls',
      });
      expect(await ask(llm)).toEqual({
        text: 'done',
        toolCalls: [],
        usage: { inputTokens: 1, outputTokens: 2 },
        finishReason: 'stop',
      });
      expect(llm.remaining).toBe(0);
      expect(llm.calls).toEqual([
        { messages: [{ role: 'user', content: 'Hi' }], toolNames: ['ping'] },
        { messages: [{ role: 'user', content: 'Hi' }], toolNames: ['ping'] },
      ]);
      expect(llm).toMatchObject({ provider: 'scripted', model: 'scripted' });
    });

    it('calls a step function with the request and its index', async () => {
      const llm = new ScriptedLLM(
        [(request, index) => ({ text: `${request.messages.length} message(s), step ${index}` })],
        { provider: 'test', model: 'm' },
      );
      expect((await ask(llm)).text).toBe('1 message(s), step 0');
    });
  });

  describe('errors', () => {
    it('throws a scripted error', async () => {
      const failure = new ToolRuntimeError('boom', { provider: 'openai', status: 500, retryable: true });
      await expect(ask(new ScriptedLLM([failure]))).rejects.toBe(failure);
    });

    it('throws when the script runs out', async () => {
      const llm = new ScriptedLLM([{ text: 'only one' }]);
      await ask(llm);
      const error = await ask(llm).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolRuntimeError);
      expect(error).toMatchObject({
        message:
          'ScriptedLLM ran out of responses: it has 1 and this is call 2; add a response to the script.',
        provider: 'scripted',
      });
    });

    it('throws ToolCancelledError for an aborted signal without using a step', async () => {
      const llm = new ScriptedLLM([{ text: 'unused' }]);
      await expect(ask(llm, AbortSignal.abort())).rejects.toThrow(
        new ToolCancelledError('The scripted model call was canceled.'),
      );
      expect(llm.remaining).toBe(1);
    });
  });
});
