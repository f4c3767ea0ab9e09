import { ActionPolicyError } from './action-policy-error';

/** The action needs approval and no approval handler is configured (fail closed). */
export class ApprovalRequiredError extends ActionPolicyError {
  override readonly name: string = 'ApprovalRequiredError';
  override readonly code: string = 'APPROVAL_REQUIRED';
}
