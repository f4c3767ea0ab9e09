import { ActionDeniedError } from '../errors/action-denied-error';
import { ActionPolicyError } from '../errors/action-policy-error';
import { ApprovalRequiredError } from '../errors/approval-required-error';
import { BudgetExceededError } from '../errors/budget-exceeded-error';
import { ToolCancelledError } from '../errors/tool-cancelled-error';
import { ToolNotFoundError } from '../errors/tool-not-found-error';
import { ToolValidationError } from '../errors/tool-validation-error';
import type { AuthorizationObserver } from '../policy/authorize-action';
import type { ApprovalDecision } from '../policy/approval-decision';
import type { ApprovalRequest } from '../policy/approval-request';
import type { PolicyDecision } from '../policy/policy-decision';
import type { RunAction } from '../runtime/run-action';
import type { RunContext } from '../runtime/run-context';
import type { TelemetryEmitter } from '../runtime/telemetry-emitter';
import type { ToolCallOutcome, ToolCallSpan, ToolCallTracer } from '../runtime/tool-call-tracer';
import type { AgentEventMap } from './agent-events';

/** What an observer needs from its agent. */
export interface ObservedHost {
  /** Listeners. */
  readonly emitter: TelemetryEmitter<AgentEventMap>;
  /** Spans (undefined when tracing is off). */
  readonly tracer: ToolCallTracer | undefined;
  /** A fresh call id. */
  nextCallId(): string;
}

/** Observes one tool call: events to listeners and one span. The no-op instance costs nothing. */
export class ToolCallObserver implements AuthorizationObserver {
  private action: RunAction | undefined;

  constructor(
    private readonly emitter: TelemetryEmitter<AgentEventMap> | undefined,
    private readonly span: ToolCallSpan | undefined,
    private readonly toolName: string,
    /** The call's id ('' for the no-op observer). */
    readonly callId: string,
    private readonly context: RunContext | undefined,
    private readonly startedAt: number,
  ) {}

  /**
   * Starts observing a call; returns the shared no-op observer when nobody listens and no tracer records.
   */
  static start(
    host: ObservedHost,
    toolName: string,
    context: RunContext,
    rawArgs: unknown,
  ): ToolCallObserver {
    const { emitter } = host;
    const tracer = host.tracer?.active ? host.tracer : undefined;
    const listening = emitter.active;
    if (!listening && !tracer) return NO_OBSERVER;
    let id: string | undefined;
    const callId = () => (id ??= host.nextCallId());
    const span = tracer?.start(toolName, callId, () => context.runId);
    if (!listening && span === undefined) return NO_OBSERVER;
    const observer = new ToolCallObserver(
      listening ? emitter : undefined,
      span,
      toolName,
      callId(),
      context,
      performance.now(),
    );
    observer.emitter?.emit('tool-call-start', { ...observer.base(), arguments: rawArgs });
    return observer;
  }

  /** Whether this is the shared no-op observer (nobody listens, no span records). */
  get quiet(): boolean {
    return this === NO_OBSERVER;
  }

  /** Records the validated arguments on the span (only when the application opted in). */
  arguments(action: RunAction, args: Record<string, unknown>): void {
    this.action = action;
    this.span?.setArguments(args);
  }

  /** The policy decided. */
  onDecision(decision: PolicyDecision): void {
    this.span?.setDecision(decision.effect);
    if (this.emitter?.has('policy-decision') && this.action)
      this.emitter.emit('policy-decision', { ...this.base(), action: this.action, decision });
  }

  /** An approver is being asked. */
  onApprovalRequest(request: ApprovalRequest): void {
    this.emitter?.emit('approval-request', { ...this.base(), request });
  }

  /** The approver answered or failed. */
  onApprovalResponse(request: ApprovalRequest, decision: ApprovalDecision | undefined, error: unknown): void {
    this.emitter?.emit('approval-response', { ...this.base(), request, decision, error });
  }

  /** The call returned. */
  end(result: unknown): void {
    this.span?.end('success');
    this.emitter?.emit('tool-call-end', {
      ...this.base(),
      result,
      durationMs: this.elapsed(),
      completedAfterCancellation: false,
    });
  }

  /** The tool finished after the call had been rejected as canceled. */
  lateResult(result: unknown): void {
    this.emitter?.emit('tool-call-end', {
      ...this.base(),
      result,
      durationMs: this.elapsed(),
      completedAfterCancellation: true,
    });
  }

  /** The call failed. */
  fail(error: unknown): void {
    const outcome = classifyOutcome(error);
    this.span?.end(outcome, error);
    this.emitter?.emit('tool-call-error', { ...this.base(), error, outcome, durationMs: this.elapsed() });
  }

  private base(): { toolName: string; callId: string; runId: string } {
    return { toolName: this.toolName, callId: this.callId, runId: this.context?.runId ?? '' };
  }

  private elapsed(): number {
    return performance.now() - this.startedAt;
  }
}

const NO_OBSERVER = new ToolCallObserver(undefined, undefined, '', '', undefined, 0);

/** Names how a call ended, from the error it threw. */
export function classifyOutcome(error: unknown): ToolCallOutcome {
  if (error instanceof ToolNotFoundError) return 'not_found';
  if (error instanceof ToolValidationError) return 'invalid_arguments';
  if (error instanceof ToolCancelledError) return 'canceled';
  if (error instanceof BudgetExceededError) return 'budget_exceeded';
  if (error instanceof ApprovalRequiredError) return 'approval_required';
  if (error instanceof ActionDeniedError || error instanceof ActionPolicyError) return 'denied';
  return 'error';
}
