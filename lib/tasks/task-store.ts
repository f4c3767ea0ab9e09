import { randomUUID } from 'node:crypto';
import type { TaskOutcome, TaskRecord, TaskStatus } from './task-record';

/** What {@link TaskStore.create} needs. */
export interface CreateTaskInput {
  /** Who may see the task (session id or token subject). */
  readonly owner: string;
  /** The tool that runs. */
  readonly toolName: string;
  /** How long the task and its result are kept, in ms from creation (null: no expiry). */
  readonly ttlMs: number | null;
  /** How often clients should poll, in ms. */
  readonly pollIntervalMs: number;
  /** How long the creating process holds the task without a heartbeat, in ms. */
  readonly leaseMs: number;
}

/** One page of an owner's tasks, oldest first. */
export interface TaskPage {
  readonly tasks: readonly TaskRecord[];
  /** Pass it back for the next page; absent on the last page. */
  readonly nextCursor?: string;
}

/**
 * Where tasks live: created with a TTL for one owner, read and listed only by that owner, moved between
 * statuses by compare-and-set (nothing is ever written after a terminal status), held by the process that
 * runs them through a lease (a task whose lease ran out reads as `failed`), and gone after their TTL.
 * `InMemoryTaskStore` is the default; `RedisTaskStore` (`protolink/redis`) shares tasks between processes.
 */
export interface TaskStore {
  /**
   * Creates a `working` task held by the caller's lease. A bounded store (see `TaskStoreLimits`) first
   * forgets its oldest ended tasks to make room.
   *
   * @throws TooManyTasksError when the store holds its most tasks (of the owner, or in all) and all still run.
   */
  create(input: CreateTaskInput): Promise<TaskRecord>;
  /** The task, or null when unknown, expired or another owner's. */
  get(taskId: string, owner: string): Promise<TaskRecord | null>;
  /** A page of the owner's tasks (`limit` per page), each exactly once across pages. */
  list(owner: string, cursor?: string, limit?: number): Promise<TaskPage>;
  /**
   * Moves a task that is not terminal to `status` (`working`, `input_required`, `cancelled`, or `failed`
   * without a result, as a closing server records the runs it stopped); returns the new record, or null when
   * the task is unknown, another owner's, or already terminal (nothing written).
   */
  updateStatus(
    taskId: string,
    owner: string,
    status: TaskStatus,
    statusMessage?: string,
  ): Promise<TaskRecord | null>;
  /**
   * Ends a task that is not terminal with a result (`completed` or `failed`); returns the new record, or
   * null when it was already terminal (a cancelled task keeps no late result). A bounded store first forgets
   * its oldest ended tasks until the result's bytes fit.
   *
   * @throws TaskResultTooLargeError when the result is larger than the store keeps for one task (nothing is
   *   written: the caller stores a failure in its place).
   */
  storeResult(
    taskId: string,
    owner: string,
    status: 'completed' | 'failed',
    result: unknown,
    statusMessage?: string,
  ): Promise<TaskRecord | null>;
  /** The result of an ended task, or undefined when there is none (yet, or ever). */
  getResult(taskId: string, owner: string): Promise<TaskOutcome | undefined>;
  /** Extends the lease of a running task by `leaseMs` from now. */
  heartbeat(taskId: string, owner: string, leaseMs: number): Promise<void>;
  /**
   * Calls `listener` when this process sees the task change (optional: stores shared between processes also
   * get polled, since a change made elsewhere may not be seen). Returns the unsubscribe function.
   */
  watch?(taskId: string, listener: () => void): () => void;
}

/** Default and most tasks per page of {@link TaskStore.list}. */
export const DEFAULT_TASK_PAGE_SIZE = 50;

/** The message of a task whose process stopped holding it. */
export function lostTaskMessage(toolName: string): string {
  return `The process running tool '${toolName}' stopped answering (its lease ran out); the task was lost. Start it again.`;
}

/** The record of a task created at `now` (a fresh UUID, status `working`): the same in every store. */
export function newTaskRecord(input: CreateTaskInput, now: number): TaskRecord {
  const at = new Date(now).toISOString();
  return {
    taskId: randomUUID(),
    owner: input.owner,
    toolName: input.toolName,
    status: 'working',
    createdAt: at,
    lastUpdatedAt: at,
    ttl: input.ttlMs,
    pollInterval: input.pollIntervalMs,
  };
}
