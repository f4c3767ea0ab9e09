import { classifyOutcome } from '../../lib/agents/tool-call-observer';
import { ActionDeniedError } from '../../lib/errors/action-denied-error';
import { ActionPolicyError } from '../../lib/errors/action-policy-error';
import { ApprovalRequiredError } from '../../lib/errors/approval-required-error';
import { BudgetExceededError } from '../../lib/errors/budget-exceeded-error';
import { ToolCancelledError } from '../../lib/errors/tool-cancelled-error';
import { ToolNotFoundError } from '../../lib/errors/tool-not-found-error';
import { ToolRuntimeError } from '../../lib/errors/tool-runtime-error';
import { ToolValidationError } from '../../lib/errors/tool-validation-error';

describe('classifyOutcome', () => {
  describe('classifyOutcome()', () => {
    it('names every kind of failure', () => {
      expect(classifyOutcome(new ToolNotFoundError({ toolName: 'x', availableTools: [] }))).toBe('not_found');
      expect(classifyOutcome(new ToolValidationError({ issues: [{ path: 'a', message: 'bad' }] }))).toBe(
        'invalid_arguments',
      );
      expect(classifyOutcome(new ToolCancelledError('stopped'))).toBe('canceled');
      expect(classifyOutcome(new BudgetExceededError('over', { limit: 'maxToolCalls', maximum: 1 }))).toBe(
        'budget_exceeded',
      );
      expect(classifyOutcome(new ApprovalRequiredError('ask'))).toBe('approval_required');
      expect(classifyOutcome(new ActionDeniedError('no'))).toBe('denied');
      expect(classifyOutcome(new ActionPolicyError('policy broke'))).toBe('denied');
      expect(classifyOutcome(new ToolRuntimeError('provider down'))).toBe('error');
      expect(classifyOutcome('thrown string')).toBe('error');
    });
  });
});
