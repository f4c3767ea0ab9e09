import { ToolRuntimeError } from '../errors/tool-runtime-error';
import type { RunContext } from '../runtime/run-context';
import type {
  ElicitationResult,
  ElicitationSchemaInput,
  SamplingRequest,
  SamplingResult,
  ToolCallChannel,
  ToolLogLevel,
} from '../runtime/tool-call-channel';
import type { TelemetryEmitter } from '../runtime/telemetry-emitter';
import { lazyRequire } from '../runtime/lazy-require';
import { raceCancellation } from '../runtime/race-cancellation';
import type { AgentEventMap } from './agent-events';
import type { ElicitationHandler, SamplingHandler } from './tool-interaction-handlers';

// Elicitation schemas are checked with the first `context.elicit()`, not on import.
const loadElicitation = lazyRequire((): typeof import('../tools/elicitation/prepare-elicitation') =>
  require('../tools/elicitation/prepare-elicitation'),
);

/** What an in-process call's channel needs from its agent. */
export interface AgentChannelHost {
  readonly emitter: TelemetryEmitter<AgentEventMap>;
  readonly elicitationHandler: ElicitationHandler | undefined;
  readonly samplingHandler: SamplingHandler | undefined;
}

/**
 * The channel of one in-process tool call: progress and log messages become the Agent's `tool-progress` and
 * `tool-log` events; questions and sampling requests go to the Agent's handlers.
 */
export class AgentToolCallChannel implements ToolCallChannel {
  constructor(
    private readonly host: AgentChannelHost,
    private readonly toolName: string,
    private readonly callId: string,
    private readonly context: RunContext,
  ) {}

  /** Whether a call of this agent needs a channel at all (handlers, or listeners of its events). */
  static isNeeded(host: AgentChannelHost): boolean {
    return (
      host.elicitationHandler !== undefined ||
      host.samplingHandler !== undefined ||
      host.emitter.has('tool-progress') ||
      host.emitter.has('tool-log')
    );
  }

  async progress(progress: number, total: number | undefined, message: string | undefined): Promise<void> {
    this.host.emitter.emit('tool-progress', { ...this.base(), progress, total, message });
  }

  async log(level: ToolLogLevel, data: unknown, logger: string | undefined): Promise<void> {
    this.host.emitter.emit('tool-log', { ...this.base(), level, data, logger });
  }

  async elicit(message: string, schema: ElicitationSchemaInput): Promise<ElicitationResult<unknown>> {
    const elicitation = loadElicitation();
    const prepared = elicitation.prepareElicitation(schema, this.toolName);
    const handler = this.host.elicitationHandler;
    if (!handler) {
      throw new ToolRuntimeError(
        `Tool '${this.toolName}' asked the user a question (context.elicit), but the Agent has no elicitationHandler; pass new Agent({ elicitationHandler }) or serve the tool to an MCP client that supports elicitation.`,
      );
    }
    const answer = await raceCancellation(
      this.context,
      Promise.resolve().then(() =>
        handler(
          { message, requestedSchema: prepared.requestedSchema, toolName: this.toolName },
          this.context,
        ),
      ),
      `Waiting for the answer to tool '${this.toolName}''s question`,
      this.toolName,
    );
    return elicitation.readElicitationAnswer(answer, prepared, this.toolName);
  }

  async sample(request: SamplingRequest): Promise<SamplingResult> {
    const handler = this.host.samplingHandler;
    if (!handler) {
      throw new ToolRuntimeError(
        `Tool '${this.toolName}' asked for a model completion (context.sample), but the Agent has no samplingHandler; pass new Agent({ samplingHandler }) or serve the tool to an MCP client that supports sampling.`,
      );
    }
    const result = await raceCancellation(
      this.context,
      Promise.resolve().then(() => handler({ ...request, toolName: this.toolName }, this.context)),
      `Waiting for the model completion asked by tool '${this.toolName}'`,
      this.toolName,
    );
    if (typeof result !== 'object' || result === null || typeof result.content !== 'object') {
      throw new ToolRuntimeError(
        `The samplingHandler answered tool '${this.toolName}' without { role, content, model }.`,
      );
    }
    return result;
  }

  canElicit(): boolean {
    return this.host.elicitationHandler !== undefined;
  }

  closeStream(): boolean {
    return false;
  }

  private base(): { toolName: string; callId: string; runId: string } {
    return { toolName: this.toolName, callId: this.callId, runId: this.context.runId };
  }
}
