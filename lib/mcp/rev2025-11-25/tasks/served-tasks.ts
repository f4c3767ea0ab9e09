import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, McpError, RELATED_TASK_META_KEY } from '@modelcontextprotocol/sdk/types.js';
import type {
  CallToolResult,
  CancelTaskResult,
  CreateTaskResult,
  GetTaskResult,
  ListTasksResult,
} from '@modelcontextprotocol/sdk/types.js';
import { ToolInputError } from '../../../errors/tool-input-error';
import type { TaskRecord } from '../../../tasks/task-record';
import { TaskRunner } from '../../../tasks/task-runner';
import type { TaskStore } from '../../../tasks/task-store';
import { toWireTask } from './to-wire-task';

/** Default of the server option `maxTaskTtlMs`: one hour. */
export const DEFAULT_MAX_TASK_TTL_MS = 60 * 60 * 1000;

/** The shortest TTL a task is granted, in ms (also at least three poll intervals, at most `maxTaskTtlMs`). */
export const MIN_TASK_TTL_MS = 1_000;

/** Options of {@link ServedTasks}. */
export interface ServedTasksOptions {
  /** Where tasks live. */
  readonly store: TaskStore;
  /** The longest TTL granted, in ms; also the TTL of a task whose client asked for none. */
  readonly maxTaskTtlMs?: number;
  /** The poll interval suggested to clients and used to read the store while waiting, in ms. */
  readonly taskPollIntervalMs?: number;
  /** The token subject of an authenticated server: tasks then belong to it, not to one session. */
  readonly tokenSubject?: string;
}

/**
 * The task side of a served agent: who owns a request's tasks, the TTL a request gets, and the answers of
 * `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel` read from the store (any process sharing the
 * store answers alike). Runs are started by `ServedToolCalls.startTask`.
 */
export class ServedTasks {
  readonly runner: TaskRunner;
  readonly maxTaskTtlMs: number;

  /** @throws ToolInputError for a `maxTaskTtlMs` or `taskPollIntervalMs` that is not a whole number >= 1. */
  constructor(private readonly options: ServedTasksOptions) {
    this.runner = new TaskRunner({ store: options.store, pollIntervalMs: options.taskPollIntervalMs });
    const max = options.maxTaskTtlMs ?? DEFAULT_MAX_TASK_TTL_MS;
    if (!Number.isSafeInteger(max) || max < 1) {
      throw new ToolInputError(
        `maxTaskTtlMs must be a whole number of milliseconds >= 1, got ${String(max)}.`,
      );
    }
    this.maxTaskTtlMs = max;
  }

  /** Whether tasks belong to the bearer token (an authenticated server), so any request can own them. */
  get ownedByToken(): boolean {
    return Boolean(this.options.tokenSubject);
  }

  /**
   * The owner of a request's tasks: the token subject when the server has a token, else the session, else
   * the stdio connection (each has an id of its own: two clients of one store never see each other's tasks).
   *
   * @throws McpError -32600 when there is none (stateless HTTP without a token: nobody could read it back).
   */
  ownerOf(sessionId: string | null | undefined, stdioConnectionId?: string): string {
    if (this.options.tokenSubject) return `token:${this.options.tokenSubject}`;
    if (sessionId) return `session:${sessionId}`;
    if (stdioConnectionId) return `stdio:${stdioConnectionId}`;
    throw new McpError(
      ErrorCode.InvalidRequest,
      'Tasks need a session (stateful HTTP) or a bearer token: serve with sessionMode stateful or a token.',
    );
  }

  /**
   * The TTL granted for a requested one: capped at `maxTaskTtlMs`, which is also the default, and raised to
   * the larger of {@link MIN_TASK_TTL_MS} and three poll intervals (a task must outlive a client's first
   * poll; never above `maxTaskTtlMs`).
   *
   * @throws McpError -32602 for a TTL that is not a whole number of ms from 0 to 2^53.
   */
  resolveTtl(requested: unknown): number {
    if (requested === undefined) return this.maxTaskTtlMs;
    if (typeof requested !== 'number' || !Number.isSafeInteger(requested) || requested < 0) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Invalid task ttl ${String(requested)}: give a whole number of milliseconds >= 0 (this server keeps tasks at most ${this.maxTaskTtlMs} ms).`,
      );
    }
    const least = Math.max(MIN_TASK_TTL_MS, 3 * this.runner.pollIntervalMs);
    return Math.min(Math.max(requested, least), this.maxTaskTtlMs);
  }

  /** The `tools/call` answer of a created task. */
  created(record: TaskRecord): CreateTaskResult {
    return { task: toWireTask(record) };
  }

  /** `tasks/get`. @throws McpError -32602 for a task that is unknown, expired or another owner's. */
  async get(taskId: string, owner: string): Promise<GetTaskResult> {
    return toWireTask(await this.find(taskId, owner));
  }

  /**
   * `tasks/result`: waits until the task is terminal (watching and polling the store), then returns the
   * tool's result with the related-task metadata.
   *
   * @throws McpError -32602 for an unknown task or a cancelled one (it has no result), -32603 for a task that
   *   failed without a result (its process was lost).
   */
  async result(taskId: string, owner: string, signal: AbortSignal): Promise<CallToolResult> {
    await this.find(taskId, owner);
    const record = await this.runner.waitForEnd(taskId, owner, signal);
    if (!record) throw notFound(taskId);
    if (record.status === 'cancelled') {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Task ${taskId} was cancelled${record.statusMessage ? ` (${record.statusMessage})` : ''}; it has no result.`,
      );
    }
    const outcome = await this.options.store.getResult(taskId, owner);
    if (!outcome) {
      throw new McpError(
        ErrorCode.InternalError,
        `Task ${taskId} failed without a result: ${record.statusMessage ?? 'no reason was recorded'}`,
      );
    }
    const result = outcome.result as CallToolResult;
    return { ...result, _meta: { ...result._meta, [RELATED_TASK_META_KEY]: { taskId } } };
  }

  /** `tasks/list`: a page of the owner's tasks. @throws McpError -32602 for a cursor the server never gave. */
  async list(owner: string, cursor: string | undefined): Promise<ListTasksResult> {
    try {
      const page = await this.options.store.list(owner, cursor);
      return {
        tasks: page.tasks.map(toWireTask),
        ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }),
      };
    } catch (error) {
      if (error instanceof ToolInputError) throw new McpError(ErrorCode.InvalidParams, error.message);
      throw error;
    }
  }

  /**
   * `tasks/cancel`: the task becomes `cancelled` and its run's signal aborts.
   *
   * @throws McpError -32602 for an unknown task or one already terminal.
   */
  async cancel(taskId: string, owner: string, server: Server): Promise<CancelTaskResult> {
    const outcome = await this.runner.cancel(taskId, owner, 'Cancelled by the client.');
    if (outcome.kind === 'not-found') throw notFound(taskId);
    if (outcome.kind === 'terminal') {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Cannot cancel task ${taskId}: it is already in terminal status '${outcome.record.status}'.`,
      );
    }
    notifyStatus(server, outcome.record);
    return toWireTask(outcome.record);
  }

  /**
   * Stops the tasks this server runs, as it closes: their signals abort and they are recorded `failed`
   * (the server shut down while they ran); see `TaskRunner.close`.
   */
  close(): Promise<void> {
    return this.runner.close();
  }

  private async find(taskId: string, owner: string): Promise<TaskRecord> {
    const record = await this.options.store.get(taskId, owner);
    if (!record) throw notFound(taskId);
    return record;
  }
}

/** Sends `notifications/tasks/status` (best effort: a client that went away misses it). */
export function notifyStatus(server: Pick<Server, 'notification'>, record: TaskRecord): void {
  server
    .notification({ method: 'notifications/tasks/status', params: toWireTask(record) })
    .catch(() => undefined);
}

function notFound(taskId: string): McpError {
  return new McpError(
    ErrorCode.InvalidParams,
    `Task not found: ${taskId} (unknown, expired, or not one of this session's tasks).`,
  );
}
