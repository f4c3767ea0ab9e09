import type { ApprovalHandler } from '../policy/approval-handler';
import type { Policy } from '../policy/policy';
import { defineKnownOptions } from '../runtime/assert-known-options';
import type { ListenerErrorHandler } from '../runtime/telemetry-emitter';
import type { OpenTelemetryApiLike } from '../runtime/tool-call-tracer';
import type { TaskStore } from '../tasks/task-store';
import type { BaseTool } from '../tools/base-tool';
import type { AgentCard, AgentCardOptions } from './agent-card';
import type { McpServerDict } from './serialization/agent-dict';
import type { ElicitationHandler, SamplingHandler } from './tool-interaction-handlers';

/** How an agent is reached: in process only, or served over HTTP (`start()`/`stop()`). */
export type AgentTransport = 'runtime' | 'http';

/** `'auto'` advertises every tool as a skill on the card; `'fixed'` leaves the card as given. */
export type SkillsMode = 'auto' | 'fixed';

/** Telemetry options of an {@link Agent}. */
export interface AgentTelemetryOptions {
  /** One OpenTelemetry span per tool call when a tracer is registered (default true; a no-op otherwise). */
  tracing?: boolean;
  /** Put validated arguments on spans (default false: arguments may hold personal data). */
  recordArguments?: boolean;
  /** The tracer's name (default `protolink`). */
  tracerName?: string;
  /** The OpenTelemetry API to use (default: `@opentelemetry/api` when installed); a seam for tests. */
  openTelemetry?: OpenTelemetryApiLike | null;
  /** Receives errors thrown by event listeners (default: one process warning). */
  onListenerError?: ListenerErrorHandler;
}

/** Options of {@link Agent}. */
export interface AgentOptions {
  /** The card (or its options) that describes the agent. */
  card: AgentCard | AgentCardOptions;
  /** `'runtime'` (default) or `'http'`. */
  transport?: AgentTransport;
  /** Decides every call (default: `new CapabilityPolicy()`, which allows by default). */
  policy?: Policy;
  /** Asked when the policy says `require_approval` (none → fail closed with ApprovalRequiredError). */
  approvalHandler?: ApprovalHandler;
  /** Answers tools' `context.elicit()` questions in-process (served calls ask the MCP client instead). */
  elicitationHandler?: ElicitationHandler;
  /** Answers tools' `context.sample()` requests in-process (served calls ask the MCP client instead). */
  samplingHandler?: SamplingHandler;
  /** `'auto'` (default) or `'fixed'`. */
  skills?: SkillsMode;
  /** Tracing and listener options. */
  telemetry?: AgentTelemetryOptions;
  /** Tools to register at construction. */
  tools?: readonly BaseTool[];
  /** Toolset instances (classes with `@Tool` methods) to register at construction. */
  toolsets?: readonly object[];
  /** Serialized MCP server entries carried through restore until an MCP adapter reconnects them. */
  mcpServers?: readonly McpServerDict[];
  /** Where `agent.startTool` keeps its tasks (default: an `InMemoryTaskStore` of this agent). */
  taskStore?: TaskStore;
}

/** The options of `new Agent()`, and advice for the names people pass instead (the original's among them). */
export const AGENT_OPTIONS = defineKnownOptions<AgentOptions>(
  'new Agent()',
  {
    card: true,
    transport: true,
    policy: true,
    approvalHandler: true,
    elicitationHandler: true,
    samplingHandler: true,
    skills: true,
    telemetry: true,
    tools: true,
    toolsets: true,
    mcpServers: true,
    taskStore: true,
  },
  {
    registry:
      "it is the original's tool registry; pass tools: [...] or toolsets: [...], or call agent.addTool() / agent.addToolset()",
    llm: 'the model is given per run: agent.infer(prompt, { llm })',
    serve:
      "serve is an option of ProtolinkModule.forRoot(); to serve an agent, call agent.start(options) (transport: 'http') or startAgentServer(agent, options) from protolink/server",
  },
);

/** The options of `telemetry` in `new Agent()`. */
export const AGENT_TELEMETRY_OPTIONS = defineKnownOptions<AgentTelemetryOptions>('new Agent() telemetry', {
  tracing: true,
  recordArguments: true,
  tracerName: true,
  openTelemetry: true,
  onListenerError: true,
});
