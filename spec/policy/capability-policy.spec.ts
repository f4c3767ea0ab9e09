import { ToolInputError } from '../../lib/errors/tool-input-error';
import { CapabilityPolicy } from '../../lib/policy/capability-policy';
import { RunAction } from '../../lib/runtime/run-action';
import { RunContext } from '../../lib/runtime/run-context';

function action(...capabilities: string[]): RunAction {
  return new RunAction({ kind: 'tool.call', name: 'probe', capabilities });
}

describe('CapabilityPolicy', () => {
  describe('constructor', () => {
    it('allows by default and uses the name capability_policy when given nothing', () => {
      const policy = new CapabilityPolicy();
      expect(policy.defaultEffect).toBe('allow');
      expect(policy.name).toBe('capability_policy');
      expect(policy.evaluate(action('network.read'), new RunContext()).effect).toBe('allow');
    });

    it('reads every effect alias, case-insensitive, trimmed, with - as _', () => {
      const policy = new CapabilityPolicy({
        a1: 'allow',
        a2: 'Allowed',
        a3: true,
        d1: 'deny',
        d2: ' DENIED ',
        d3: false,
        r1: 'require_approval',
        r2: 'approval',
        r3: 'ask',
        r4: 'require-approval',
        r5: { effect: 'ask' },
      });
      expect(policy.rules).toEqual({
        a1: 'allow',
        a2: 'allow',
        a3: 'allow',
        d1: 'deny',
        d2: 'deny',
        d3: 'deny',
        r1: 'require_approval',
        r2: 'require_approval',
        r3: 'require_approval',
        r4: 'require_approval',
        r5: 'require_approval',
      });
    });

    it('throws ToolInputError naming the rule when an effect is unknown', () => {
      expect(() => new CapabilityPolicy({ 'network.read': 'maybe' })).toThrow(ToolInputError);
      expect(() => new CapabilityPolicy({ 'network.read': 'maybe' })).toThrow(
        `CapabilityPolicy rules['network.read'] has the unsupported policy effect "maybe"`,
      );
      expect(() => new CapabilityPolicy({ x: 3 as never })).toThrow('unsupported policy effect number');
    });

    it('throws ToolInputError for a pattern that is not exact, prefix.* or *', () => {
      expect(() => new CapabilityPolicy({ 'net*': 'deny' })).toThrow(ToolInputError);
      expect(() => new CapabilityPolicy({ 'net*': 'deny' })).toThrow('which is not a capability pattern');
      expect(() => new CapabilityPolicy({ '*.read': 'deny' })).toThrow('which is not a capability pattern');
      expect(() => new CapabilityPolicy({ ' ': 'deny' })).toThrow('which is not a capability pattern');
    });

    it('throws ToolInputError for rules that are not an object, a bad default effect or an empty name', () => {
      expect(() => new CapabilityPolicy(['x'] as never)).toThrow(
        'CapabilityPolicy rules must map capabilities to effects',
      );
      expect(() => new CapabilityPolicy({}, { defaultEffect: 'sometimes' })).toThrow(
        'CapabilityPolicy defaultEffect has the unsupported policy effect "sometimes"',
      );
      expect(() => new CapabilityPolicy({}, { name: ' ' })).toThrow(
        'CapabilityPolicy name must be a non-empty string.',
      );
    });
  });

  describe('evaluate', () => {
    it('allows network.read and denies everything else for the researcher policy', () => {
      const policy = new CapabilityPolicy({ 'network.read': 'allow' }, { defaultEffect: 'deny' });
      const context = new RunContext();
      expect(policy.evaluate(action('network.read'), context).effect).toBe('allow');
      const denied = policy.evaluate(action('records.write'), context);
      expect(denied.effect).toBe('deny');
      expect(denied.reason).toBe('Denied capabilities: records.write');
      expect(denied.matchedCapabilities).toEqual(['records.write']);
      expect(denied.metadata).toEqual({
        capabilities: { 'records.write': 'deny' },
        sources: { 'records.write': 'policy:default' },
      });
    });

    it('allows an action that declares no capabilities, even under default deny', () => {
      const decision = new CapabilityPolicy({}, { defaultEffect: 'deny' }).evaluate(
        action(),
        new RunContext(),
      );
      expect(decision.effect).toBe('allow');
      expect(decision.reason).toBe('Action declares no protected capabilities');
    });

    it('prefers an exact rule, then the longest prefix.*, then *, then the default', () => {
      const policy = new CapabilityPolicy(
        { 'fs.write.tmp': 'allow', 'fs.*': 'require_approval', 'fs.write.*': 'deny', '*': 'allow' },
        { defaultEffect: 'deny' },
      );
      const context = new RunContext();
      expect(policy.evaluate(action('fs.write.tmp'), context).metadata.sources).toEqual({
        'fs.write.tmp': 'policy:fs.write.tmp',
      });
      expect(policy.evaluate(action('fs.write.home'), context).effect).toBe('deny');
      expect(policy.evaluate(action('fs.read'), context).effect).toBe('require_approval');
      expect(policy.evaluate(action('network.read'), context).effect).toBe('allow');
      // `fs.*` covers `fs` itself: a deny on a family cannot be stepped around by naming its root.
      expect(policy.evaluate(action('fs'), context).metadata.sources).toEqual({ fs: 'policy:fs.*' });
      expect(new CapabilityPolicy({ 'fs.*': 'allow' }, { defaultEffect: 'deny' }).effectOf('fs')).toBe(
        'allow',
      );
      expect(new CapabilityPolicy({ 'fs.*': 'allow' }, { defaultEffect: 'deny' }).effectOf('fsx')).toBe(
        'deny',
      );
    });

    it('gives the most restrictive effect across capabilities and lists the ones that produced it', () => {
      const policy = new CapabilityPolicy({
        a: 'allow',
        b: 'require_approval',
        c: 'require_approval',
        d: 'deny',
      });
      const context = new RunContext();
      const approval = policy.evaluate(action('a', 'c', 'b'), context);
      expect(approval.effect).toBe('require_approval');
      expect(approval.matchedCapabilities).toEqual(['b', 'c']);
      expect(approval.reason).toBe('Approval required for capabilities: b, c');
      expect(policy.evaluate(action('a', 'b', 'd'), context).effect).toBe('deny');
      expect(policy.evaluate(action('a'), context).reason).toBe('Allowed capabilities: a');
    });

    it('denies any action in a canceled context, with the cancel reason', () => {
      const context = new RunContext();
      context.cancel('user pressed stop');
      const decision = new CapabilityPolicy().evaluate(action(), context);
      expect(decision.effect).toBe('deny');
      expect(decision.reason).toBe('user pressed stop');
      expect(decision.metadata).toEqual({ canceled: true });
    });

    it('lets RunContext permissions narrow the policy but never widen it', () => {
      const policy = new CapabilityPolicy({
        'network.read': 'allow',
        'records.write': 'deny',
        'mail.send': 'require_approval',
      });
      const narrowing = new RunContext({ permissions: { 'network.*': 'deny' } });
      const denied = policy.evaluate(action('network.read'), narrowing);
      expect(denied.effect).toBe('deny');
      expect(denied.metadata.sources).toEqual({ 'network.read': 'permissions:network.*' });
      const widening = new RunContext({
        permissions: { 'records.write': 'allow', 'mail.send': true, default: 'allow' },
      });
      expect(policy.evaluate(action('records.write'), widening).effect).toBe('deny');
      expect(policy.evaluate(action('mail.send'), widening).effect).toBe('require_approval');
      const askAll = new RunContext({ permissions: { default: 'ask' } });
      expect(policy.evaluate(action('network.read'), askAll).effect).toBe('require_approval');
    });

    it('applies the permissions of every parent context of a child', () => {
      const policy = new CapabilityPolicy();
      const parent = new RunContext({ permissions: { 'network.*': 'deny' } });
      const child = parent.child({ permissions: { 'records.write': 'ask', 'network.read': 'allow' } });
      expect(policy.evaluate(action('network.read'), child).effect).toBe('deny');
      expect(policy.evaluate(action('records.write'), child).effect).toBe('require_approval');
    });
  });

  describe('toDict', () => {
    it('returns the type, name, default effect and canonical rules', () => {
      const policy = new CapabilityPolicy(
        { 'network.read': 'allowed', 'records.*': 'ask' },
        { defaultEffect: false, name: 'strict' },
      );
      expect(policy.toDict()).toEqual({
        type: 'capability',
        name: 'strict',
        defaultEffect: 'deny',
        rules: { 'network.read': 'allow', 'records.*': 'require_approval' },
      });
    });
  });

  describe('fromDict', () => {
    it('round-trips toDict output', () => {
      const policy = new CapabilityPolicy({ 'network.read': 'allow', '*': 'ask' }, { defaultEffect: 'deny' });
      const restored = CapabilityPolicy.fromDict(policy.toDict());
      expect(restored.toDict()).toEqual(policy.toDict());
      expect(restored.evaluate(action('x'), new RunContext()).effect).toBe('require_approval');
    });

    it('throws ToolInputError naming the malformed field', () => {
      expect(() => CapabilityPolicy.fromDict('deny')).toThrow(ToolInputError);
      expect(() => CapabilityPolicy.fromDict('deny')).toThrow('policy must be an object');
      expect(() => CapabilityPolicy.fromDict({ type: 'custom' })).toThrow(
        `policy.type is "custom"; only 'capability' policies are serialized`,
      );
      expect(() => CapabilityPolicy.fromDict({ rules: { a: 'perhaps' } })).toThrow(
        `policy.rules['a'] has the unsupported policy effect "perhaps"`,
      );
      expect(() => CapabilityPolicy.fromDict({ rules: ['a'] })).toThrow(
        'policy.rules must map capabilities to effects',
      );
      expect(() => CapabilityPolicy.fromDict({ defaultEffect: 7 })).toThrow(
        'policy.defaultEffect has the unsupported policy effect number',
      );
      expect(() => CapabilityPolicy.fromDict({ name: 3 })).toThrow('policy.name must be a non-empty string.');
    });
  });
});
