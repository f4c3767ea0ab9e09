/** Where a task is: running, waiting for the user, or ended (the last three are terminal). */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** The statuses a task never leaves. */
export const TERMINAL_TASK_STATUSES: readonly TaskStatus[] = Object.freeze([
  'completed',
  'failed',
  'cancelled',
]);

/** Returns whether a status is terminal (`completed`, `failed`, `cancelled`). */
export function isTerminalTaskStatus(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/** One task as a {@link TaskStore} keeps it (plain JSON data). */
export interface TaskRecord {
  /** Unguessable id (a UUID). */
  readonly taskId: string;
  /** Who may see it: a session id, or a token subject (see `toTaskOwner`). */
  readonly owner: string;
  /** The tool that runs. */
  readonly toolName: string;
  /** Where the task is. */
  readonly status: TaskStatus;
  /** Why it is there (a failure's message, who cancelled it). */
  readonly statusMessage?: string;
  /** When it was created (ISO 8601). */
  readonly createdAt: string;
  /** When its status last changed (ISO 8601). */
  readonly lastUpdatedAt: string;
  /** How long it (and its result) is kept after creation, in ms; null: until the store is cleared. */
  readonly ttl: number | null;
  /** How often a client should poll it, in ms. */
  readonly pollInterval: number;
}

/** What a task ended with, when it ended with something (its status says which). */
export interface TaskOutcome {
  /** The stored result (JSON data: a `CallToolResult` when served, `{ value }` in process). */
  readonly result: unknown;
}
