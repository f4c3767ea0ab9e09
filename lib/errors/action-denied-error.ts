import { ActionPolicyError } from './action-policy-error';

/** The policy denied the action, or an approver rejected it. */
export class ActionDeniedError extends ActionPolicyError {
  override readonly name: string = 'ActionDeniedError';
  override readonly code: string = 'ACTION_DENIED';
}
