import { ToolInputError } from '../../lib/errors/tool-input-error';
import { compileCapabilityRules, matchCapabilityRule } from '../../lib/capabilities/capability-rules';
import { mostRestrictiveEffect, toPolicyEffect } from '../../lib/capabilities/policy-effect';

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
        "my.rules has the rule key 'a*b', which is not a capability pattern ('*' may only stand alone ('*') or end a prefix pattern ('network.*'))",
      );
    });
  });
});

describe('compileCapabilityRules keys', () => {
  describe('compileCapabilityRules()', () => {
    it('lower-cases rule keys so that Network.* and network.* are one rule', () => {
      const rules = compileCapabilityRules({ 'Network.*': 'deny', 'Records.Write': 'ask' }, 'rules');
      expect(rules.canonical).toEqual({ 'network.*': 'deny', 'records.write': 'require_approval' });
      expect(matchCapabilityRule(rules, 'network.read')?.effect).toBe('deny');
      expect(matchCapabilityRule(rules, 'records.write')?.effect).toBe('require_approval');
    });

    it('lets prefix.* match the prefix itself, but not a longer word that starts like it', () => {
      const rules = compileCapabilityRules({ 'network.*': 'deny' }, 'rules');
      expect(matchCapabilityRule(rules, 'network')).toEqual({
        effect: 'deny',
        source: 'prefix',
        rule: 'network.*',
      });
      expect(matchCapabilityRule(rules, 'networks')).toBeUndefined();
    });

    it.each([
      [' network.read', 'it has leading or trailing spaces'],
      ['n\u0435twork.*', 'it contains the non-ASCII character U+0435'],
      ['network\u200b.read', 'it contains the non-ASCII character U+200B'],
      ['\uff4eetwork.*', 'it contains the non-ASCII character U+FF4E'],
      ['network..read', 'it has an empty segment'],
      ['.*', 'it is empty'],
    ])('throws ToolInputError for the rule key %j, saying what to write instead', (key, why) => {
      const compile = () => compileCapabilityRules({ [key]: 'deny' }, 'rules');
      expect(compile).toThrow(ToolInputError);
      expect(compile).toThrow(`(${why}`);
      expect(compile).toThrow(
        "use an exact name ('network.read'), a prefix pattern ('network.*') or '*', in lower-case ASCII words of [a-z0-9_-] joined by dots.",
      );
    });

    it('throws ToolInputError for two keys that are one rule once lower-cased', () => {
      const compile = () =>
        compileCapabilityRules({ 'network.read': 'deny', 'Network.Read': 'allow' }, 'rules');
      expect(compile).toThrow(ToolInputError);
      expect(compile).toThrow(
        "rules has the rule keys 'network.read' and 'Network.Read', which are the same rule once lower-cased; keep one ('network.read').",
      );
    });
  });
});

describe('toPolicyEffect', () => {
  describe('toPolicyEffect()', () => {
    it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'])(
      'refuses the prototype member name %j instead of reading it as an effect',
      (name) => {
        expect(() => toPolicyEffect(name, 'rules.x')).toThrow(ToolInputError);
        expect(() => toPolicyEffect(name, 'rules.x')).toThrow(
          `rules.x has the unsupported policy effect "${name}"; use 'allow', 'deny' or 'require_approval'`,
        );
        expect(() => compileCapabilityRules({ 'network.read': name }, 'rules')).toThrow(ToolInputError);
      },
    );

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
