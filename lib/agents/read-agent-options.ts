import { ToolInputError } from '../errors/tool-input-error';
import { CapabilityPolicy } from '../policy/capability-policy';
import { assertKnownOptions } from '../runtime/assert-known-options';
import { TelemetryEmitter } from '../runtime/telemetry-emitter';
import { ToolCallTracer } from '../runtime/tool-call-tracer';
import { InMemoryTaskStore } from '../tasks/in-memory-task-store';
import type { BaseTool } from '../tools/base-tool';
import { AgentCard } from './agent-card';
import type { AgentEventMap } from './agent-events';
import { AGENT_OPTIONS, AGENT_TELEMETRY_OPTIONS } from './agent-options';
import type { AgentOptions } from './agent-options';
import type { Agent } from './agent';
import type { ToolCallHost } from './execute-tool-call';
import { pickOption } from './pick-agent-option';

/** An Agent's options, checked, with the defaults filled in: the fields of the Agent they become. */
export type ReadAgentOptions = Pick<
  Agent,
  | 'card'
  | 'transport'
  | 'skillsMode'
  | 'policy'
  | 'approvalHandler'
  | 'elicitationHandler'
  | 'samplingHandler'
  | 'taskStore'
  | 'mcpServers'
>;

/**
 * Checks the options of `new Agent()` and fills in the defaults (the policy, `'runtime'`, `'auto'`); the card
 * is a copy, so two agents built on one card never advertise each other's skills.
 *
 * @throws ToolInputError for malformed options; ToolDefinitionError for an option that is not known.
 */
export function readAgentOptions(options: AgentOptions): ReadAgentOptions {
  if (typeof options !== 'object' || options === null) {
    throw new ToolInputError(
      "new Agent() needs options: { card: { name, description, url }, policy?, approvalHandler?, skills?: 'auto' | 'fixed' }.",
    );
  }
  assertKnownOptions(options, AGENT_OPTIONS);
  if (typeof options.telemetry === 'object' && options.telemetry !== null)
    assertKnownOptions(options.telemetry, AGENT_TELEMETRY_OPTIONS);
  const card =
    options.card instanceof AgentCard
      ? AgentCard.fromJSON(options.card.toJSON(), 'card')
      : new AgentCard(options.card);
  const transport = pickOption(options.transport, 'transport', ['runtime', 'http'], 'runtime');
  const skillsMode = pickOption(options.skills, 'skills', ['auto', 'fixed'], 'auto');
  if (options.policy !== undefined && typeof options.policy?.evaluate !== 'function') {
    throw new ToolInputError(
      'Agent policy must have an evaluate(action, context) method, e.g. new CapabilityPolicy({ ... }).',
    );
  }
  if (options.approvalHandler !== undefined && typeof options.approvalHandler !== 'function') {
    throw new ToolInputError(
      'Agent approvalHandler must be a function (request, context) => ApprovalDecision | boolean.',
    );
  }
  for (const field of ['elicitationHandler', 'samplingHandler'] as const) {
    if (options[field] !== undefined && typeof options[field] !== 'function') {
      throw new ToolInputError(
        `Agent ${field} must be a function (request, context) => result; got ${typeof options[field]}.`,
      );
    }
  }
  return {
    card,
    transport,
    skillsMode,
    policy: options.policy ?? new CapabilityPolicy(),
    approvalHandler: options.approvalHandler,
    elicitationHandler: options.elicitationHandler,
    samplingHandler: options.samplingHandler,
    taskStore: options.taskStore ?? new InMemoryTaskStore(),
    // Copied and frozen: the caller's entries cannot change what a restored agent reconnects to.
    mcpServers: Object.freeze((options.mcpServers ?? []).map((server) => structuredClone(server))),
  };
}

/** What every call of an agent runs with: its tools, policy, handlers, telemetry and call ids. */
export function createToolCallHost(
  read: ReadAgentOptions,
  telemetry: NonNullable<AgentOptions['telemetry']>,
  emitter: TelemetryEmitter<AgentEventMap>,
  resolveTool: (name: string) => BaseTool,
): ToolCallHost {
  let sequence = 0;
  return {
    resolveTool,
    policy: read.policy,
    approvalHandler: read.approvalHandler,
    elicitationHandler: read.elicitationHandler,
    samplingHandler: read.samplingHandler,
    emitter,
    tracer:
      telemetry.tracing === false
        ? undefined
        : new ToolCallTracer({
            api: telemetry.openTelemetry,
            tracerName: telemetry.tracerName,
            recordArguments: telemetry.recordArguments,
          }),
    nextCallId: () => `call_${++sequence}`,
  };
}
