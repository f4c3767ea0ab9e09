// Entry point `protolink`: everything public — agents, runtime, policy, errors, and `protolink/tools`.
export * from './tools/index';
export {
  ProtolinkError,
  ToolInputError,
  ToolValidationError,
  ToolNotFoundError,
  UnsafeUrlError,
  ToolRuntimeError,
  ToolDefinitionError,
  ActionPolicyError,
  ActionDeniedError,
  ApprovalRequiredError,
  ToolCancelledError,
  BudgetExceededError,
} from './errors/index';
export type {
  ProtolinkErrorOptions,
  ToolValidationErrorOptions,
  ValidationIssue,
  ToolNotFoundErrorOptions,
  UnsafeUrlErrorOptions,
  ToolRuntimeErrorOptions,
  ActionPolicyErrorOptions,
  ToolCancelledErrorOptions,
  BudgetExceededErrorOptions,
} from './errors/index';
