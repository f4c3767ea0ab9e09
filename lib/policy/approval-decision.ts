import { ToolInputError } from '../errors/tool-input-error';
import { copyData, deepFreeze } from '../runtime/deep-freeze';

/** Options of {@link ApprovalDecision}. */
export interface ApprovalDecisionOptions {
  /** Whether the action may run. */
  approved: boolean;
  /** The id of the request being answered (must match it). */
  requestId: string;
  /** Why, shown in the error when denied. */
  reason?: string | null;
  /** Who decided (a user id, a service name). */
  decidedBy?: string | null;
  /** Free-form details. */
  metadata?: Record<string, unknown>;
  /** Restored decision time, ISO 8601 (now when absent). */
  decidedAt?: string;
}

/** The JSON form of an {@link ApprovalDecision}. */
export interface ApprovalDecisionDict {
  approved: boolean;
  requestId: string;
  reason: string | null;
  decidedBy: string | null;
  metadata: Record<string, unknown>;
  decidedAt: string;
}

/** An approver's answer to one {@link ApprovalRequest}. Immutable. */
export class ApprovalDecision {
  /** Whether the action may run. */
  readonly approved: boolean;
  /** The request being answered. */
  readonly requestId: string;
  /** Why. */
  readonly reason: string | null;
  /** Who decided. */
  readonly decidedBy: string | null;
  /** Free-form details. */
  readonly metadata: Readonly<Record<string, unknown>>;
  /** When (ISO 8601). */
  readonly decidedAt: string;

  /** @throws ToolInputError when `approved` is not a boolean or `requestId` is missing. */
  constructor(options: ApprovalDecisionOptions) {
    if (typeof options !== 'object' || options === null || typeof options.approved !== 'boolean') {
      throw new ToolInputError(
        'new ApprovalDecision() needs { approved: true | false, requestId: request.requestId }.',
      );
    }
    if (typeof options.requestId !== 'string' || options.requestId === '') {
      throw new ToolInputError(
        'An ApprovalDecision needs the requestId of the request it answers (request.requestId).',
      );
    }
    this.approved = options.approved;
    this.requestId = options.requestId;
    this.reason = options.reason ?? null;
    this.decidedBy = options.decidedBy ?? null;
    this.metadata = deepFreeze(copyData(options.metadata ?? {}));
    this.decidedAt = options.decidedAt ?? new Date().toISOString();
    Object.freeze(this);
  }

  /** Returns the JSON form. */
  toDict(): ApprovalDecisionDict {
    return {
      approved: this.approved,
      requestId: this.requestId,
      reason: this.reason,
      decidedBy: this.decidedBy,
      metadata: copyData(this.metadata) as Record<string, unknown>,
      decidedAt: this.decidedAt,
    };
  }

  /**
   * Rebuilds a decision; anything but `approved: true` reads as not approved (fail closed).
   *
   * @throws ToolInputError for data that is not an object or has no requestId.
   */
  static fromDict(data: unknown): ApprovalDecision {
    if (typeof data !== 'object' || data === null || Array.isArray(data)) {
      throw new ToolInputError(
        'ApprovalDecision.fromDict() needs an object such as { approved, requestId }.',
      );
    }
    const record = data as Partial<ApprovalDecisionDict>;
    return new ApprovalDecision({
      approved: record.approved === true,
      requestId: record.requestId as string,
      reason: typeof record.reason === 'string' ? record.reason : null,
      decidedBy: typeof record.decidedBy === 'string' ? record.decidedBy : null,
      metadata: typeof record.metadata === 'object' && record.metadata !== null ? record.metadata : {},
      decidedAt: typeof record.decidedAt === 'string' ? record.decidedAt : undefined,
    });
  }
}
