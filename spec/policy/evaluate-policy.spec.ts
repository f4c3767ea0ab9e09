import { ActionPolicyError } from '../../lib/errors/action-policy-error';
import { ToolInputError } from '../../lib/errors/tool-input-error';
import { evaluatePolicy } from '../../lib/policy/evaluate-policy';
import type { Policy } from '../../lib/policy/policy';
import { PolicyDecision } from '../../lib/policy/policy-decision';
import { RunAction } from '../../lib/runtime/run-action';
import { RunContext } from '../../lib/runtime/run-context';

const action = new RunAction({ kind: 'tool.call', name: 'send_mail', capabilities: ['mail.send'] });

describe('evaluatePolicy', () => {
  describe('evaluatePolicy()', () => {
    it('returns the decision of a sync policy and awaits an async one', async () => {
      const sync: Policy = {
        name: 'sync',
        evaluate: () => new PolicyDecision({ effect: 'deny', reason: 'no' }),
      };
      expect((evaluatePolicy(sync, action, new RunContext()) as PolicyDecision).effect).toBe('deny');
      const asyncPolicy: Policy = {
        name: 'async',
        evaluate: async () => new PolicyDecision({ effect: 'allow' }),
      };
      await expect(evaluatePolicy(asyncPolicy, action, new RunContext())).resolves.toMatchObject({
        effect: 'allow',
      });
    });

    it('accepts a plain object with a valid effect and names the policy', async () => {
      const plain = {
        name: 'plain',
        evaluate: () => ({ effect: 'require_approval', reason: 'check' }),
      } as unknown as Policy;
      const decision = evaluatePolicy(plain, action, new RunContext()) as PolicyDecision;
      expect(decision).toBeInstanceOf(PolicyDecision);
      expect(decision.policyName).toBe('plain');
    });

    it('throws ActionPolicyError for a policy that throws or rejects', async () => {
      const throwing: Policy = {
        name: 'broken',
        evaluate: () => {
          throw new Error('database down');
        },
      };
      expect(() => evaluatePolicy(throwing, action, new RunContext())).toThrow(ActionPolicyError);
      expect(() => evaluatePolicy(throwing, action, new RunContext())).toThrow(
        "Policy 'broken' failed while evaluating tool 'send_mail' (database down); the tool did not run.",
      );
      const rejecting: Policy = {
        name: 'broken-async',
        evaluate: async () => {
          throw new Error('timeout');
        },
      };
      await expect(evaluatePolicy(rejecting, action, new RunContext())).rejects.toThrow(
        "Policy 'broken-async' failed",
      );
    });

    it('lets a Protolink error from the policy through unchanged', () => {
      const failure = new ToolInputError('bad permissions');
      const policy: Policy = {
        evaluate: () => {
          throw failure;
        },
      };
      expect(() => evaluatePolicy(policy, action, new RunContext())).toThrow(failure);
    });

    it('throws ActionPolicyError for a result that is not a decision', async () => {
      const wrong = { name: 'wrong', evaluate: () => 'allow' } as unknown as Policy;
      expect(() => evaluatePolicy(wrong, action, new RunContext())).toThrow(ActionPolicyError);
      expect(() => evaluatePolicy(wrong, action, new RunContext())).toThrow(
        "Policy 'wrong' returned string for tool 'send_mail' instead of a PolicyDecision",
      );
      const badEffect = { name: 'bad', evaluate: async () => ({ effect: 'maybe' }) } as unknown as Policy;
      await expect(evaluatePolicy(badEffect, action, new RunContext())).rejects.toThrow(
        "Policy 'bad' returned object",
      );
    });
  });
});
