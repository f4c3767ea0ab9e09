import { ActionDeniedError } from '../../lib/errors/action-denied-error';
import { ActionPolicyError } from '../../lib/errors/action-policy-error';
import { ApprovalRequiredError } from '../../lib/errors/approval-required-error';
import { ToolCancelledError } from '../../lib/errors/tool-cancelled-error';
import { ApprovalDecision } from '../../lib/policy/approval-decision';
import { ApprovalRequest } from '../../lib/policy/approval-request';
import { PolicyDecision } from '../../lib/policy/policy-decision';
import { requestApproval } from '../../lib/policy/request-approval';
import { RunAction } from '../../lib/runtime/run-action';
import { RunContext } from '../../lib/runtime/run-context';

function buildRequest(): ApprovalRequest {
  const action = new RunAction({
    kind: 'tool.call',
    name: 'publish_record',
    capabilities: ['records.write'],
  });
  const policyDecision = new PolicyDecision({
    effect: 'require_approval',
    reason: 'Approval required for capabilities: records.write',
  });
  return new ApprovalRequest({ action, policyDecision, runId: 'run-1' });
}

describe('requestApproval', () => {
  describe('requestApproval()', () => {
    it('returns the decision of a handler that approves with an ApprovalDecision', async () => {
      const request = buildRequest();
      const decision = await requestApproval(
        (asked) => new ApprovalDecision({ approved: true, requestId: asked.requestId, decidedBy: 'ada' }),
        request,
        new RunContext(),
      );
      expect(decision.approved).toBe(true);
      expect(decision.decidedBy).toBe('ada');
      expect(request.requestId).toMatch(/^approval_/);
    });

    it('wraps a boolean answer, sync or async, in a decision', async () => {
      const request = buildRequest();
      await expect(requestApproval(() => true, request, new RunContext())).resolves.toMatchObject({
        approved: true,
        requestId: request.requestId,
      });
      await expect(requestApproval(async () => true, request, new RunContext())).resolves.toBeInstanceOf(
        ApprovalDecision,
      );
    });

    it('fails closed with ApprovalRequiredError when there is no handler', async () => {
      const promise = requestApproval(undefined, buildRequest(), new RunContext());
      await expect(promise).rejects.toThrow(ApprovalRequiredError);
      await expect(requestApproval(undefined, buildRequest(), new RunContext())).rejects.toThrow(
        "Action 'publish_record' requires approval (Approval required for capabilities: records.write) and no approval handler is configured",
      );
    });

    it('throws ActionDeniedError with the approver’s reason when denied', async () => {
      const request = buildRequest();
      const denial = requestApproval(
        (asked) =>
          new ApprovalDecision({ approved: false, requestId: asked.requestId, reason: 'not on Fridays' }),
        request,
        new RunContext(),
      );
      await expect(denial).rejects.toThrow(ActionDeniedError);
      const refused = (await requestApproval(() => false, request, new RunContext()).catch(
        (error: unknown) => error,
      )) as Error;
      expect(refused).toBeInstanceOf(ActionDeniedError);
      expect(refused.message).toBe(
        "Action 'publish_record' denied: the approver refused it (no reason given). The tool did not run.",
      );
      expect(refused.message).not.toMatch(/approval required/i);
      await expect(
        requestApproval(
          (asked) =>
            new ApprovalDecision({ approved: false, requestId: asked.requestId, reason: 'not on Fridays' }),
          request,
          new RunContext(),
        ),
      ).rejects.toThrow("Action 'publish_record' denied: not on Fridays");
    });

    it('throws ActionPolicyError for a handler that throws, sync or async', async () => {
      const failing = requestApproval(
        () => {
          throw new Error('approver offline');
        },
        buildRequest(),
        new RunContext(),
      );
      await expect(failing).rejects.toThrow(ActionPolicyError);
      await expect(
        requestApproval(
          async () => {
            throw new Error('approver offline');
          },
          buildRequest(),
          new RunContext(),
        ),
      ).rejects.toThrow(
        "The approval handler failed for tool 'publish_record' (approver offline); the tool did not run.",
      );
    });

    it('throws ActionPolicyError for a wrong return type', async () => {
      for (const answer of ['yes', 1, null, undefined, { approved: true }]) {
        await expect(
          requestApproval(() => answer as never, buildRequest(), new RunContext()),
        ).rejects.toThrow(ActionPolicyError);
      }
      await expect(requestApproval(() => 'yes' as never, buildRequest(), new RunContext())).rejects.toThrow(
        "The approval handler returned string for tool 'publish_record'; it must return an ApprovalDecision or a boolean.",
      );
    });

    it('throws ActionPolicyError for a decision answering another request id', async () => {
      const request = buildRequest();
      await expect(
        requestApproval(
          () => new ApprovalDecision({ approved: true, requestId: 'approval_other' }),
          request,
          new RunContext(),
        ),
      ).rejects.toThrow(
        `The approval handler answered request 'approval_other' but was asked about '${request.requestId}'`,
      );
    });

    it('throws ToolCancelledError when the context’s deadline passes before the handler answers', async () => {
      const context = new RunContext({ budget: { maxRuntimeSeconds: 0.05 } });
      const never = requestApproval(() => new Promise<boolean>(() => undefined), buildRequest(), context);
      await expect(never).rejects.toThrow(ToolCancelledError);
      await expect(
        requestApproval(() => new Promise<boolean>(() => undefined), buildRequest(), context),
      ).rejects.toThrow("tool 'publish_record' did not complete");
    });

    it('throws ToolCancelledError when the run is canceled while the approver is deciding', async () => {
      const context = new RunContext();
      const pending = requestApproval(
        () => new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 200)),
        buildRequest(),
        context,
      );
      setTimeout(() => context.cancel('user left'), 10);
      await expect(pending).rejects.toThrow(
        "The approval for tool 'publish_record' was still pending when run",
      );
    });

    it('throws ToolCancelledError when the run was canceled by the handler itself before it approved', async () => {
      const context = new RunContext();
      await expect(
        requestApproval(
          (_request, handlerContext) => {
            handlerContext.cancel('changed mind');
            return true;
          },
          buildRequest(),
          context,
        ),
      ).rejects.toThrow(ToolCancelledError);
    });
  });
});
