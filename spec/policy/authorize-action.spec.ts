import { ActionDeniedError } from '../../lib/errors/action-denied-error';
import { ToolCancelledError } from '../../lib/errors/tool-cancelled-error';
import { authorizeAction } from '../../lib/policy/authorize-action';
import { ApprovalDecision } from '../../lib/policy/approval-decision';
import type { ApprovalRequest } from '../../lib/policy/approval-request';
import { CapabilityPolicy } from '../../lib/policy/capability-policy';
import type { Policy } from '../../lib/policy/policy';
import { RunAction } from '../../lib/runtime/run-action';
import { RunContext } from '../../lib/runtime/run-context';

const write = new RunAction({
  kind: 'tool.call',
  name: 'publish_record',
  capabilities: ['records.write'],
  artifacts: [{ kind: 'preview', content: 'record 7' }],
});

describe('authorizeAction', () => {
  describe('authorizeAction()', () => {
    it('returns a synchronous allow without a promise', () => {
      const result = authorizeAction(write, new RunContext(), { policy: new CapabilityPolicy() });
      expect(result).not.toBeInstanceOf(Promise);
      expect((result as { decision: { effect: string } }).decision.effect).toBe('allow');
    });

    it('throws ActionDeniedError on deny with the policy’s reason', async () => {
      const policy = new CapabilityPolicy({ 'records.write': 'deny' });
      await expect(authorizeAction(write, new RunContext(), { policy })).rejects.toThrow(ActionDeniedError);
      await expect(authorizeAction(write, new RunContext(), { policy })).rejects.toThrow(
        "Action 'publish_record' denied: Denied capabilities: records.write",
      );
    });

    it('asks the approver with the action’s previews and reports decision and response', async () => {
      const seen: string[] = [];
      let asked: ApprovalRequest | undefined;
      const authorization = await authorizeAction(write, new RunContext({ runId: 'run-9' }), {
        policy: new CapabilityPolicy({ 'records.write': 'require_approval' }),
        approvalHandler: (request) => {
          asked = request;
          return new ApprovalDecision({ approved: true, requestId: request.requestId });
        },
        observer: {
          onDecision: (decision) => seen.push(`decision:${decision.effect}`),
          onApprovalRequest: () => seen.push('request'),
          onApprovalResponse: (_request, decision, error) =>
            seen.push(`response:${String(decision?.approved)}:${String(error)}`),
        },
      });
      expect(seen).toEqual(['decision:require_approval', 'request', 'response:true:undefined']);
      expect(asked?.action.artifacts[0]).toMatchObject({ kind: 'preview', content: 'record 7' });
      expect(asked?.runId).toBe('run-9');
      expect(authorization.approvalDecision?.approved).toBe(true);
    });

    it('never asks the policy when the context is already canceled', () => {
      const evaluate = jest.fn();
      const context = new RunContext();
      context.cancel('stop');
      expect(() => authorizeAction(write, context, { policy: { evaluate } as Policy })).toThrow(
        ToolCancelledError,
      );
      expect(evaluate).not.toHaveBeenCalled();
    });

    it('throws ToolCancelledError when an async policy does not answer before the run’s deadline', async () => {
      const silent: Policy = { name: 'silent', evaluate: () => new Promise(() => undefined) };
      const context = new RunContext({ budget: { maxRuntimeSeconds: 0.05 } });
      await expect(authorizeAction(write, context, { policy: silent })).rejects.toThrow(ToolCancelledError);
      await expect(
        authorizeAction(write, new RunContext({ budget: { maxRuntimeSeconds: 0.05 } }), { policy: silent }),
      ).rejects.toThrow("The policy decision for tool 'publish_record' was still pending when run");
    });

    it('reports the error to the observer when the approver denies', async () => {
      const errors: unknown[] = [];
      await expect(
        authorizeAction(write, new RunContext(), {
          policy: new CapabilityPolicy({ 'records.*': 'ask' }),
          approvalHandler: async () => false,
          observer: { onApprovalResponse: (_request, _decision, error) => errors.push(error) },
        }),
      ).rejects.toThrow(ActionDeniedError);
      expect(errors[0]).toBeInstanceOf(ActionDeniedError);
    });
  });
});
