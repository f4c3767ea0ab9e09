/// <reference types="node" preserve="true" />
// Entry point `protolink/agents` (the original's `protolink.agents`): the Agent, its card and skills, its
// events, the built-in factory table and the serialized (dict/YAML) forms. `protolink` exports the same names.
export { Agent } from './agent';
export type { AgentAddToolOptions, AgentToolOptions } from './agent-tool-options';
export type { AgentOptions, AgentTelemetryOptions, AgentTransport, SkillsMode } from './agent-options';
export { AgentCard } from './agent-card';
export type { AgentCardOptions, AgentCardJson, AgentCapabilities } from './agent-card';
export { AgentSkill } from './agent-skill';
export type { AgentSkillOptions, AgentSkillJson } from './agent-skill';
export { AGENT_EVENT_NAMES } from './agent-events';
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
} from './agent-events';
export type {
  ElicitationHandler,
  SamplingHandler,
  SamplingHandlerRequest,
} from './tool-interaction-handlers';
export { DEFAULT_BUILTIN_TOOL_FACTORIES } from './builtin-tool-factories';
export type { BuiltinToolFactory } from './builtin-tool-factories';
export type {
  AgentDict,
  BuiltinToolDict,
  McpServerDict,
  McpServerPinDict,
  NativeToolDict,
  ToolDict,
} from './serialization/agent-dict';
export type { AgentRestoreOverrides } from './serialization/restore-agent';
