import { ApprovalRequest, PolicyDecision, RunAction, RunContext } from '../../lib';
import { ApprovalRequiredError } from '../../lib/errors/approval-required-error';
import { ToolCancelledError } from '../../lib/errors/tool-cancelled-error';
import { grantExternalApproval, takeExternalApproval } from '../../lib/policy/external-approval';
import { requestApproval } from '../../lib/policy/request-approval';

function requestFor(toolName: string, context: RunContext): ApprovalRequest {
  return new ApprovalRequest({
    action: new RunAction({ kind: 'tool.call', name: toolName, payload: { arguments: {} } }),
    policyDecision: new PolicyDecision({ effect: 'require_approval', reason: 'needs a person' }),
    runId: context.runId,
  });
}

describe('takeExternalApproval', () => {
  it('answers the request of the granted tool once, as an approved decision for that request', () => {
    const context = new RunContext();
    grantExternalApproval(context, {
      toolName: 'publish',
      decidedBy: 'ai-sdk',
      reason: 'ok',
      metadata: { approvalId: 'a1' },
    });
    const request = requestFor('publish', context);

    const decision = takeExternalApproval(request, context);

    expect(decision).toMatchObject({
      approved: true,
      requestId: request.requestId,
      decidedBy: 'ai-sdk',
      reason: 'ok',
      metadata: { approvalId: 'a1' },
    });
    expect(takeExternalApproval(requestFor('publish', context), context)).toBeUndefined();
  });

  it('does not answer a request for another tool, or in another context', () => {
    const context = new RunContext();
    grantExternalApproval(context, { toolName: 'publish', decidedBy: 'ai-sdk' });

    expect(takeExternalApproval(requestFor('wipe', context), context)).toBeUndefined();
    expect(takeExternalApproval(requestFor('publish', context), new RunContext())).toBeUndefined();
  });
});

describe('requestApproval', () => {
  it('uses a granted external approval instead of the handler', async () => {
    const context = new RunContext();
    grantExternalApproval(context, { toolName: 'publish', decidedBy: 'ai-sdk' });
    const handler = jest.fn(() => false);

    const decision = await requestApproval(handler, requestFor('publish', context), context);

    expect(decision.decidedBy).toBe('ai-sdk');
    expect(handler).not.toHaveBeenCalled();
  });

  it('still fails closed without a grant and without a handler', async () => {
    const context = new RunContext();

    await expect(requestApproval(undefined, requestFor('publish', context), context)).rejects.toBeInstanceOf(
      ApprovalRequiredError,
    );
  });

  it('does not let a granted approval run a canceled call', async () => {
    const context = new RunContext();
    grantExternalApproval(context, { toolName: 'publish', decidedBy: 'ai-sdk' });
    context.cancel('user left');

    await expect(requestApproval(undefined, requestFor('publish', context), context)).rejects.toBeInstanceOf(
      ToolCancelledError,
    );
  });
});
