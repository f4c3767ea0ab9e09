import { ToolInputError } from '../../lib/errors/tool-input-error';
import { compileCapabilityRules, matchCapabilityRule } from '../../lib/runtime/capability-rules';
import { mostRestrictiveEffect, toPolicyEffect } from '../../lib/runtime/policy-effect';

describe('compileCapabilityRules', () => {
  describe('compileCapabilityRules()', () => {
    it('matches exact, then the longest prefix, then *, then default', () => {
      const rules = compileCapabilityRules(
        { 'a.b.c': 'allow', 'a.*': 'ask', 'a.b.*': 'deny', '*': 'allow', default: 'deny' },
        'rules',
        {
          allowDefault: true,
        },
      );
      expect(matchCapabilityRule(rules, 'a.b.c')).toEqual({
        effect: 'allow',
        source: 'exact',
        rule: 'a.b.c',
      });
      expect(matchCapabilityRule(rules, 'a.b.d')).toEqual({
        effect: 'deny',
        source: 'prefix',
        rule: 'a.b.*',
      });
      expect(matchCapabilityRule(rules, 'a.x')).toEqual({
        effect: 'require_approval',
        source: 'prefix',
        rule: 'a.*',
      });
      expect(matchCapabilityRule(rules, 'z')).toEqual({ effect: 'allow', source: 'wildcard', rule: '*' });
      const onlyDefault = compileCapabilityRules({ default: 'deny' }, 'rules', { allowDefault: true });
      expect(matchCapabilityRule(onlyDefault, 'z')).toEqual({
        effect: 'deny',
        source: 'default',
        rule: 'default',
      });
      expect(matchCapabilityRule(compileCapabilityRules({}, 'rules'), 'z')).toBeUndefined();
    });

    it('treats default as an exact capability name where defaults are not allowed', () => {
      const rules = compileCapabilityRules({ default: 'deny' }, 'rules');
      expect(matchCapabilityRule(rules, 'default')?.source).toBe('exact');
      expect(matchCapabilityRule(rules, 'other')).toBeUndefined();
    });

    it('throws ToolInputError naming the field for a bad key', () => {
      expect(() => compileCapabilityRules({ 'a*b': 'allow' }, 'my.rules')).toThrow(ToolInputError);
      expect(() => compileCapabilityRules({ 'a*b': 'allow' }, 'my.rules')).toThrow(
        'my.rules has the rule key "a*b"',
      );
    });
  });
});

describe('toPolicyEffect', () => {
  describe('toPolicyEffect()', () => {
    it('reads aliases and rejects the rest naming the field', () => {
      expect(toPolicyEffect('ASK', 'f')).toBe('require_approval');
      expect(toPolicyEffect({ effect: false }, 'f')).toBe('deny');
      expect(() => toPolicyEffect(null, 'field.x')).toThrow('field.x has the unsupported policy effect null');
      expect(() => toPolicyEffect({ effect: 'x' }, 'f')).toThrow(
        'f.effect has the unsupported policy effect "x"',
      );
    });
  });
});

describe('mostRestrictiveEffect', () => {
  describe('mostRestrictiveEffect()', () => {
    it('orders deny over require_approval over allow', () => {
      expect(mostRestrictiveEffect('allow', 'require_approval')).toBe('require_approval');
      expect(mostRestrictiveEffect('deny', 'require_approval')).toBe('deny');
      expect(mostRestrictiveEffect('allow', 'allow')).toBe('allow');
    });
  });
});
