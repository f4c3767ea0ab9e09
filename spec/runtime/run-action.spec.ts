import { ToolInputError } from '../../lib/errors/tool-input-error';
import { RunAction } from '../../lib/runtime/run-action';

describe('RunAction', () => {
  describe('constructor', () => {
    it('fills in an id and creation time and freezes a copy of its data', () => {
      const args = { nested: { city: 'Athens' } };
      const action = new RunAction({
        kind: 'tool.call',
        name: 'book',
        payload: { arguments: args },
        capabilities: ['a', '', 'a', 'b'],
      });
      args.nested.city = 'Paris';
      expect(action.payload).toEqual({ arguments: { nested: { city: 'Athens' } } });
      expect(Object.isFrozen(action.payload.arguments)).toBe(true);
      expect(action.capabilities).toEqual(['a', 'b']);
      expect(action.actionId).toMatch(/^[0-9a-f-]{36}$/);
      expect(action.actionId).toBe(action.actionId);
      expect(Number.isNaN(Date.parse(action.createdAt))).toBe(false);
      expect(() => {
        (action as unknown as { kind: string }).kind = 'other';
      }).toThrow(TypeError);
    });

    it('gives artifacts the action id when they have none', () => {
      const action = new RunAction({
        kind: 'tool.call',
        name: 'send',
        artifacts: [{ kind: 'preview', content: 'Dear Ada' }],
      });
      expect(action.artifacts).toEqual([{ kind: 'preview', content: 'Dear Ada', actionId: action.actionId }]);
    });

    it('lower-cases capabilities and refuses a bare string or a name that is not a capability', () => {
      const action = new RunAction({
        kind: 'tool.call',
        name: 'x',
        capabilities: ['Network.Read', 'network.read'],
      });
      expect(action.capabilities).toEqual(['network.read']);
      expect(action.withCapabilities(['Records.Write']).capabilities).toEqual(['records.write']);
      expect(action.withCapabilities(new Set(['b', 'a', 'B'])).capabilities).toEqual(['b', 'a']);
      expect(
        new RunAction({ kind: 'tool.call', name: 'x', capabilities: new Set(['Email.Send']) }).capabilities,
      ).toEqual(['email.send']);
      expect(
        () => new RunAction({ kind: 'tool.call', name: 'x', capabilities: 'records.write' as never }),
      ).toThrow(ToolInputError);
      expect(
        () => new RunAction({ kind: 'tool.call', name: 'x', capabilities: 'records.write' as never }),
      ).toThrow("RunAction 'x': capabilities must be a list, not the bare string 'records.write'");
      expect(
        () => new RunAction({ kind: 'tool.call', name: 'x', capabilities: ['n\u0435twork.read'] }),
      ).toThrow(
        "RunAction 'x': capability 'n\\u0435twork.read' is not a capability name: it contains the non-ASCII character U+0435",
      );
      expect(() => RunAction.fromDict({ kind: 'tool.call', name: 'x', capabilities: ['a b'] })).toThrow(
        ToolInputError,
      );
    });

    it('throws ToolInputError without a kind or a name', () => {
      expect(() => new RunAction({ kind: '', name: 'x' })).toThrow(ToolInputError);
      expect(() => new RunAction({ kind: '', name: 'x' })).toThrow('A RunAction needs a kind');
      expect(() => new RunAction({ kind: 'tool.call', name: '' })).toThrow(
        "A RunAction of kind 'tool.call' needs a name.",
      );
    });
  });

  describe('toDict', () => {
    it('round-trips through fromDict, keeping id and time', () => {
      const action = new RunAction({
        kind: 'tool.call',
        name: 'book',
        description: 'Book a room',
        payload: { arguments: { guests: 2 } },
        capabilities: ['records.write'],
        artifacts: [{ kind: 'preview', content: 'Room for 2' }],
        metadata: { source: 'test' },
      });
      const restored = RunAction.fromDict(JSON.parse(JSON.stringify(action.toDict())));
      expect(restored.toDict()).toEqual(action.toDict());
      expect(restored.withPayload({ arguments: { guests: 3 } }).payload).toEqual({
        arguments: { guests: 3 },
      });
      expect(restored.withCapabilities(['x']).capabilities).toEqual(['x']);
      expect(restored.withArtifacts([{ kind: 'diff' }]).artifacts).toHaveLength(2);
    });
  });
});
