import { ToolDefinitionError } from '../../lib/errors/tool-definition-error';
import { prepareToolCall } from '../../lib/agents/prepare-tool-call';
import { RunAction } from '../../lib/runtime/run-action';
import { RunContext } from '../../lib/runtime/run-context';
import type { BaseTool } from '../../lib/tools/base-tool';
import { NativeTool } from '../../lib/tools/native-tool';

function structural(overrides: Partial<BaseTool> & Record<string, unknown>): BaseTool {
  return {
    name: 'custom',
    description: 'Custom',
    inputSchema: null,
    outputSchema: null,
    tags: null,
    examples: null,
    capabilities: ['a.b'],
    call: async () => undefined,
    ...overrides,
  } as BaseTool;
}

describe('prepareToolCall', () => {
  describe('prepareToolCall()', () => {
    it('builds a default tool.call action for a tool without prepareAction, accepting any object when it has no schema', async () => {
      const prepared = await prepareToolCall(structural({}), { anything: [1] }, new RunContext());
      expect(prepared.args).toEqual({ anything: [1] });
      expect(prepared.action.toDict()).toMatchObject({
        kind: 'tool.call',
        name: 'custom',
        description: 'Custom',
        capabilities: ['a.b'],
        payload: { arguments: { anything: [1] } },
      });
    });

    it('puts the validated arguments in the payload when a builder leaves them out, and merges required capabilities back', async () => {
      const tool = new NativeTool({
        name: 'mail',
        description: 'Mail',
        inputSchema: { to: 'str' },
        capabilities: ['mail.send'],
        func: () => undefined,
        actionBuilder: () => new RunAction({ kind: 'tool.call', name: 'mail', metadata: { preview: true } }),
      });
      const prepared = await prepareToolCall(tool, { to: 'ada' }, new RunContext());
      expect(prepared.action.payload).toEqual({ arguments: { to: 'ada' } });
      expect(prepared.action.capabilities).toEqual(['mail.send']);
      expect(prepared.action.metadata).toEqual({ preview: true });
    });

    it('merges required capabilities back into the action of a structural prepareAction', async () => {
      const tool = structural({
        prepareAction: () => new RunAction({ kind: 'tool.call', name: 'custom', capabilities: ['other'] }),
      });
      const prepared = await prepareToolCall(tool, {}, new RunContext());
      expect(prepared.action.capabilities).toEqual(['other', 'a.b']);
    });

    it('throws ToolDefinitionError when prepareAction returns something else or payload.arguments is not an object', async () => {
      await expect(
        prepareToolCall(structural({ prepareAction: async () => 'action' }), {}, new RunContext()),
      ).rejects.toThrow(ToolDefinitionError);
      await expect(
        prepareToolCall(structural({ prepareAction: async () => 'action' }), {}, new RunContext()),
      ).rejects.toThrow(
        "Tool 'custom' prepareAction() must return a RunAction, got string; the tool did not run.",
      );
      const listArgs = structural({
        prepareAction: () =>
          new RunAction({ kind: 'tool.call', name: 'custom', payload: { arguments: [1] } }),
      });
      await expect(prepareToolCall(listArgs, {}, new RunContext())).rejects.toThrow(
        "The action prepared for tool 'custom' has payload.arguments of type array; it must be an object of arguments.",
      );
    });
  });
});
