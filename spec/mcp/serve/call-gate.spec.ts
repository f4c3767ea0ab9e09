import { CallGate } from '../../../lib/mcp/serve/call-gate';
import { isServableAgent } from '../../../lib/agents/servable-agent';
import { createFakeAgent } from '../../fixtures/serve/fake-agent';

describe('CallGate', () => {
  describe('tryEnter', () => {
    it('admits up to the limit, refuses beyond it, and admits again after leave', () => {
      const gate = new CallGate(2);
      expect([gate.tryEnter(), gate.tryEnter(), gate.tryEnter()]).toEqual([true, true, false]);
      expect(gate.active).toBe(2);
      gate.leave();
      expect(gate.tryEnter()).toBe(true);
      gate.leave();
      gate.leave();
      gate.leave();
      expect(gate.active).toBe(0);
    });
  });
});

describe('isServableAgent', () => {
  it('accepts an object with a card name, a tools map and callToolInContext; nothing else', () => {
    expect(isServableAgent(createFakeAgent())).toBe(true);
    expect(isServableAgent(null)).toBe(false);
    expect(isServableAgent({ card: { name: 'x' }, tools: new Map() })).toBe(false);
    expect(isServableAgent({ card: {}, tools: new Map(), callToolInContext: () => 1 })).toBe(false);
    expect(isServableAgent({ card: { name: 'x' }, tools: [], callToolInContext: () => 1 })).toBe(false);
  });
});
