import type { ApprovalDecision } from '../policy/approval-decision';
import type { ApprovalRequest } from '../policy/approval-request';
import type { PolicyDecision } from '../policy/policy-decision';
import type { RunAction } from '../runtime/run-action';
import type { ToolLogLevel } from '../runtime/tool-call-channel';
import type { ToolCallOutcome } from '../runtime/tool-call-tracer';

/** Fields every tool-call event has. */
export interface ToolCallEventBase {
  /** The tool called. */
  toolName: string;
  /** Identifies this call across its events (unique per agent). */
  callId: string;
  /** The run the call belongs to. */
  runId: string;
}

/** A call started (before lookup and validation). */
export interface ToolCallStartEvent extends ToolCallEventBase {
  /** The arguments as given by the caller (unvalidated). */
  arguments: unknown;
}

/** A call returned a result. */
export interface ToolCallEndEvent extends ToolCallEventBase {
  /** The tool's result. */
  result: unknown;
  /** Milliseconds since `tool-call-start`. */
  durationMs: number;
  /**
   * True when the tool finished only after the call had already been rejected as canceled: the result
   * is reported here so a completed side effect is never hidden.
   */
  completedAfterCancellation: boolean;
}

/** A call failed (not found, invalid, denied, canceled, over budget, or the tool threw). */
export interface ToolCallErrorEvent extends ToolCallEventBase {
  /** The error the caller receives. */
  error: unknown;
  /** What kind of failure it was. */
  outcome: ToolCallOutcome;
  /** Milliseconds since `tool-call-start`. */
  durationMs: number;
}

/** The policy decided. */
export interface PolicyDecisionEvent extends ToolCallEventBase {
  /** The action evaluated. */
  action: RunAction;
  /** The decision. */
  decision: PolicyDecision;
}

/** An approver is being asked. */
export interface ApprovalRequestEvent extends ToolCallEventBase {
  /** The request (its action carries the previews). */
  request: ApprovalRequest;
}

/** The approver answered, or failed to. */
export interface ApprovalResponseEvent extends ToolCallEventBase {
  /** The request answered. */
  request: ApprovalRequest;
  /** The decision, when a valid one was given. */
  decision: ApprovalDecision | undefined;
  /** Why no valid approval came (denied, handler error, wrong answer, canceled). */
  error: unknown;
}

/** A running tool reported progress (`context.reportProgress`) in an in-process call. */
export interface ToolProgressEvent extends ToolCallEventBase {
  /** Progress so far. */
  progress: number;
  /** The total, when known. */
  total: number | undefined;
  /** A human-readable note, when given. */
  message: string | undefined;
}

/** A running tool sent a log message (`context.log`) in an in-process call. */
export interface ToolLogEvent extends ToolCallEventBase {
  /** The RFC 5424 severity. */
  level: ToolLogLevel;
  /** The message (any JSON-serializable data). */
  data: unknown;
  /** The logger's name, when given. */
  logger: string | undefined;
}

/** The events an Agent emits, by name. */
export interface AgentEventMap {
  'tool-call-start': ToolCallStartEvent;
  'tool-call-end': ToolCallEndEvent;
  'tool-call-error': ToolCallErrorEvent;
  'policy-decision': PolicyDecisionEvent;
  'approval-request': ApprovalRequestEvent;
  'approval-response': ApprovalResponseEvent;
  'tool-progress': ToolProgressEvent;
  'tool-log': ToolLogEvent;
}

/** The name of an Agent event. */
export type AgentEventName = keyof AgentEventMap;

/** The names of every Agent event. */
export const AGENT_EVENT_NAMES: readonly AgentEventName[] = Object.freeze([
  'tool-call-start',
  'tool-call-end',
  'tool-call-error',
  'policy-decision',
  'approval-request',
  'approval-response',
  'tool-progress',
  'tool-log',
]);
