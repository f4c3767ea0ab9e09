export { ProtolinkError } from './protolink-error';
export type { ProtolinkErrorOptions } from './protolink-error';
export { ToolInputError } from './tool-input-error';
export { ToolValidationError } from './tool-validation-error';
export type { ToolValidationErrorOptions, ValidationIssue } from './tool-validation-error';
export { ToolNotFoundError } from './tool-not-found-error';
export type { ToolNotFoundErrorOptions } from './tool-not-found-error';
export { UnsafeUrlError } from './unsafe-url-error';
export type { UnsafeUrlErrorOptions } from './unsafe-url-error';
export { ToolRuntimeError } from './tool-runtime-error';
export type { ToolRuntimeErrorOptions } from './tool-runtime-error';
export {
  SessionStoreUnavailableError,
  SESSION_STORE_UNAVAILABLE_HTTP_STATUS,
  SESSION_STORE_UNAVAILABLE_RPC_CODE,
} from './session-store-unavailable-error';
export type { SessionStoreUnavailableErrorOptions } from './session-store-unavailable-error';
export { SessionStoreDataError } from './session-store-data-error';
export { SessionLimitError } from './session-limit-error';
export type { SessionLimit, SessionLimitErrorOptions } from './session-limit-error';
export type { SessionStoreDataErrorOptions } from './session-store-data-error';
export { TooManyTasksError } from './too-many-tasks-error';
export type { TooManyTasksErrorOptions } from './too-many-tasks-error';
export { TaskResultTooLargeError } from './task-result-too-large-error';
export type { TaskResultTooLargeErrorOptions } from './task-result-too-large-error';
export { SessionBusMessageTooLargeError } from './session-bus-message-too-large-error';
export type { SessionBusMessageTooLargeErrorOptions } from './session-bus-message-too-large-error';
export { ToolDefinitionError } from './tool-definition-error';
export { ActionPolicyError } from './action-policy-error';
export type { ActionPolicyErrorOptions } from './action-policy-error';
export { ActionDeniedError } from './action-denied-error';
export { ApprovalRequiredError } from './approval-required-error';
export { ToolCancelledError } from './tool-cancelled-error';
export type { ToolCancelledErrorOptions } from './tool-cancelled-error';
export { BudgetExceededError } from './budget-exceeded-error';
export type { BudgetExceededErrorOptions } from './budget-exceeded-error';
export { ResourceNotFoundError } from './resource-not-found-error';
export type { ResourceNotFoundErrorOptions } from './resource-not-found-error';
export { PromptNotFoundError } from './prompt-not-found-error';
export type { PromptNotFoundErrorOptions } from './prompt-not-found-error';
