import { ActionDeniedError } from '../../../lib/errors/action-denied-error';
import { ActionPolicyError } from '../../../lib/errors/action-policy-error';
import { ApprovalRequiredError } from '../../../lib/errors/approval-required-error';
import { BudgetExceededError } from '../../../lib/errors/budget-exceeded-error';
import { ToolCancelledError } from '../../../lib/errors/tool-cancelled-error';
import { ToolRuntimeError } from '../../../lib/errors/tool-runtime-error';
import { isAuthorizationFailure, isCallerFacingError } from '../../../lib/mcp/wire/is-caller-facing-error';
import { toCallToolErrorResult } from '../../../lib/mcp/wire/to-call-tool-result';

describe('isCallerFacingError', () => {
  it('passes decisions and Protolink errors written for the caller', () => {
    for (const error of [
      new ActionDeniedError('denied: closed on weekends'),
      new ApprovalRequiredError('needs approval'),
      new BudgetExceededError('over budget', { limit: 'maxToolCalls', maximum: 3 }),
      new ToolCancelledError('canceled'),
      new ToolRuntimeError('the provider answered 503'),
    ]) {
      expect(isCallerFacingError(error)).toBe(true);
      expect(isAuthorizationFailure(error)).toBe(false);
    }
  });

  it('keeps failing policies and approvers, and foreign errors, on the server', () => {
    const failed = new ActionPolicyError('The approval handler failed (postgres://app:hunter2@db)', {
      cause: new Error('postgres://app:hunter2@db'),
      toolName: 'publish',
    });
    expect(isCallerFacingError(failed)).toBe(false);
    expect(isAuthorizationFailure(failed)).toBe(true);
    expect(isCallerFacingError(new TypeError('x'))).toBe(false);
    expect(isCallerFacingError('a string')).toBe(false);
    const result = toCallToolErrorResult(failed, 'publish');
    expect(JSON.stringify(result)).not.toContain('hunter2');
    expect(result.content).toEqual([
      {
        type: 'text',
        text: "Tool 'publish' did not run: the server could not authorize the call (its policy or approval step failed); the server's log has the details.",
      },
    ]);
  });
});
