/// <reference types="node" preserve="true" />
// Entry point `protolink`: everything public — agents, runtime, policy, errors, and `protolink/tools`.
export * from './tools/index';
export {
  ProtolinkError,
  ToolInputError,
  ToolValidationError,
  ToolNotFoundError,
  UnsafeUrlError,
  ToolRuntimeError,
  SessionStoreUnavailableError,
  SESSION_STORE_UNAVAILABLE_HTTP_STATUS,
  SESSION_STORE_UNAVAILABLE_RPC_CODE,
  SessionStoreDataError,
  TooManyTasksError,
  TaskResultTooLargeError,
  SessionLimitError,
  SessionBusMessageTooLargeError,
  ToolDefinitionError,
  ActionPolicyError,
  ActionDeniedError,
  ApprovalRequiredError,
  ToolCancelledError,
  BudgetExceededError,
  ResourceNotFoundError,
  PromptNotFoundError,
} from './errors/index';
export type {
  ProtolinkErrorOptions,
  ToolValidationErrorOptions,
  ValidationIssue,
  ToolNotFoundErrorOptions,
  UnsafeUrlErrorOptions,
  ToolRuntimeErrorOptions,
  SessionStoreUnavailableErrorOptions,
  SessionStoreDataErrorOptions,
  TooManyTasksErrorOptions,
  TaskResultTooLargeErrorOptions,
  SessionLimit,
  SessionLimitErrorOptions,
  SessionBusMessageTooLargeErrorOptions,
  ActionPolicyErrorOptions,
  ToolCancelledErrorOptions,
  BudgetExceededErrorOptions,
  ResourceNotFoundErrorOptions,
  PromptNotFoundErrorOptions,
} from './errors/index';
export { Resource } from './resources/resource.decorator';
export { ResourceTemplate } from './resources/resource-template.decorator';
export type { ResourceOptions, ResourceTemplateOptions } from './resources/resource-options';
export type {
  CompletionProvider,
  CompletionProviders,
  CompletionContext,
} from './resources/completion-provider';
export type { ResourceContents, ReadResourceResult } from './resources/resource-contents';
export { CatalogRegistry, MAX_COMPLETION_VALUES } from './resources/catalog-registry';
export type {
  CompletionReference,
  CompletionResult,
  ResolvedCompletion,
  ResolvedResource,
} from './resources/catalog-registry';
export type {
  CatalogEntry,
  ResourceEntry,
  ResourceTemplateEntry,
  PromptEntry,
  PromptArgumentEntry,
} from './resources/catalog-entry';
export { Prompt } from './prompts/prompt.decorator';
export type { PromptOptions } from './prompts/prompt-options';
export type { PromptMessage, GetPromptResult } from './prompts/prompt-messages';
export { Agent } from './agents/agent';
export type { CompleteOptions } from './agents/complete-catalog-entry';
export { InMemoryTaskStore } from './tasks/in-memory-task-store';
export { isTerminalTaskStatus } from './tasks/task-record';
export type { TaskOutcome, TaskRecord, TaskStatus } from './tasks/task-record';
export type { CreateTaskInput, TaskPage, TaskStore } from './tasks/task-store';
export { TASK_STORE_LIMIT_DEFAULTS } from './tasks/task-store-limits';
export type { TaskStoreLimits } from './tasks/task-store-limits';
export { ToolTask } from './tasks/tool-task';
export type { StartToolOptions } from './tasks/start-tool-task';
export type { AgentAddToolOptions, AgentToolOptions } from './agents/agent-tool-options';
export type { AgentOptions, AgentTelemetryOptions, AgentTransport, SkillsMode } from './agents/agent-options';
export { AgentCard } from './agents/agent-card';
export type { AgentCardOptions, AgentCardJson, AgentCapabilities } from './agents/agent-card';
export { AgentSkill } from './agents/agent-skill';
export type { AgentSkillOptions, AgentSkillJson } from './agents/agent-skill';
export { AGENT_EVENT_NAMES } from './agents/agent-events';
export type {
  AgentEventMap,
  AgentEventName,
  ToolCallEventBase,
  ToolCallStartEvent,
  ToolCallEndEvent,
  ToolCallErrorEvent,
  PolicyDecisionEvent,
  ApprovalRequestEvent,
  ApprovalResponseEvent,
  ToolProgressEvent,
  ToolLogEvent,
} from './agents/agent-events';
export type {
  ElicitationHandler,
  SamplingHandler,
  SamplingHandlerRequest,
} from './agents/tool-interaction-handlers';
export { DEFAULT_BUILTIN_TOOL_FACTORIES } from './agents/builtin-tool-factories';
export type { BuiltinToolFactory } from './agents/builtin-tool-factories';
export type {
  AgentDict,
  BuiltinToolDict,
  McpServerDict,
  McpServerPinDict,
  NativeToolDict,
} from './agents/serialization/agent-dict';
export type { AgentRestoreOverrides } from './agents/serialization/restore-agent';
export { CapabilityPolicy } from './policy/capability-policy';
export type { CapabilityPolicyOptions, CapabilityPolicyDict } from './policy/capability-policy';
export { PolicyDecision } from './policy/policy-decision';
export type { PolicyDecisionOptions, PolicyDecisionDict } from './policy/policy-decision';
export type { Policy } from './policy/policy';
export type { ApprovalHandler } from './policy/approval-handler';
export { ApprovalDecision } from './policy/approval-decision';
export type { ApprovalDecisionOptions, ApprovalDecisionDict } from './policy/approval-decision';
export { ApprovalRequest } from './policy/approval-request';
export type { ApprovalRequestOptions, ApprovalRequestDict } from './policy/approval-request';
export type { PolicyEffect, PolicyEffectInput } from './capabilities/policy-effect';
export { RunAction } from './runtime/run-action';
export type { RunActionOptions, RunActionDict, ActionArtifact } from './runtime/run-action';
export { RunContext } from './runtime/run-context';
export type { RunContextOptions, RunContextDict, PermissionValue } from './runtime/run-context';
export type { RunBudget, RunUsage } from './runtime/run-budget';
export { TOOL_LOG_LEVELS } from './runtime/tool-call-channel';
export type {
  ToolLogLevel,
  ElicitationSchemaInput,
  ElicitationRequest,
  ElicitationResult,
  SamplingRequest,
  SamplingResult,
  SamplingMessage,
  SamplingContent,
} from './runtime/tool-call-channel';
export type { ToolCallOutcome } from './runtime/tool-call-tracer';
export { toOpenAITools } from './llm/to-openai-tools';
export type { ToOpenAIToolsOptions, OpenAIChatTool, OpenAIResponsesTool } from './llm/to-openai-tools';
export { toAnthropicTools } from './llm/to-anthropic-tools';
export type { AnthropicTool, AnthropicInputSchema } from './llm/to-anthropic-tools';
export { toGeminiTools } from './llm/to-gemini-tools';
export type {
  GeminiTool,
  GeminiFunctionDeclaration,
  GeminiJsonSchemaTool,
  GeminiJsonSchemaFunctionDeclaration,
  ToGeminiToolsOptions,
} from './llm/to-gemini-tools';
export type { ToolSource } from './llm/collect-tools';
export { parseToolArguments } from './llm/parse-tool-arguments';
export { runToolLoop } from './llm/run-tool-loop';
export type {
  ToolLoopCaller,
  RunToolLoopOptions,
  ToolLoopResult,
  ToolCallTrace,
  ToolCallProblem,
  ToolLoopEvent,
  ToolLoopUsage,
} from './llm/tool-loop-types';
export type {
  LLM,
  LlmMessage,
  LlmSystemMessage,
  LlmUserMessage,
  LlmAssistantMessage,
  LlmToolMessage,
  LlmToolCall,
  LlmRequest,
  LlmResponse,
  LlmUsage,
} from './llm/llm';
export { ScriptedLLM } from './llm/scripted-llm';
export type { ScriptedResponse, ScriptedStep, ScriptedToolCall, ScriptedCall } from './llm/scripted-llm';
export { OpenAIChatLLM } from './llm/providers/openai-chat-llm';
export type { OpenAIChatLLMOptions } from './llm/providers/openai-chat-llm';
export { OpenAIResponsesLLM } from './llm/providers/openai-responses-llm';
export type { OpenAIResponsesLLMOptions } from './llm/providers/openai-responses-llm';
export { AnthropicLLM } from './llm/providers/anthropic-llm';
export type { AnthropicLLMOptions } from './llm/providers/anthropic-llm';
export { GeminiLLM } from './llm/providers/gemini-llm';
export type { GeminiLLMOptions } from './llm/providers/gemini-llm';
export { OpenAICompatibleLLM } from './llm/providers/openai-compatible-llm';
export type { OpenAICompatibleLLMOptions } from './llm/providers/openai-compatible-llm';
export { fromOpenAI } from './llm/clients/from-openai';
export type { FromOpenAIOptions } from './llm/clients/from-openai';
export type { OpenAIClient, ClientRequestOptions } from './llm/clients/openai-client';
export { fromAnthropic } from './llm/clients/from-anthropic';
export type { FromAnthropicOptions } from './llm/clients/from-anthropic';
export type { AnthropicClient } from './llm/clients/anthropic-client';
export { fromGemini } from './llm/clients/from-gemini';
export type { FromGeminiOptions } from './llm/clients/from-gemini';
export type { GeminiClient, GeminiGenerateContentParams } from './llm/clients/gemini-client';
export type { OpenAIChatCompletionBody, OpenAIChatMessageParam } from './llm/providers/openai-chat-format';
export type { OpenAIResponsesBody, OpenAIResponsesInputItem } from './llm/providers/openai-responses-format';
export type {
  AnthropicMessagesBody,
  AnthropicMessageParam,
  AnthropicContentBlockParam,
} from './llm/providers/anthropic-messages-format';
export type { GeminiContent, GeminiPart } from './llm/providers/gemini-content-format';
export type { ObjectJsonSchema } from './llm/schema/lower-json-schema';
export type { ListenerErrorHandler, TelemetryListener } from './runtime/telemetry-emitter';
export type { OpenTelemetryApiLike, SpanLike } from './runtime/tool-call-tracer';
export type { ToolDict } from './agents/serialization/agent-dict';
export type { CompiledCapabilityRules } from './capabilities/capability-rules';
export type { CapabilityList } from './capabilities/capability-name';
export type { AgentServerOptions, AgentServerHandle } from './agents/agent-server-options';
