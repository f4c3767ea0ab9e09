import { ToolInputError } from '../errors/tool-input-error';
import type { ToolLaunchHook } from '../runtime/tool-launch-hook';
import { isTerminalTaskStatus } from './task-record';
import type { TaskRecord, TaskStatus } from './task-record';
import type { TaskStore } from './task-store';

/** Defaults of {@link TaskRunnerOptions}. */
export const TASK_RUNNER_DEFAULTS = Object.freeze({ pollIntervalMs: 1_000, leaseMs: 15_000 });

/** Options of {@link TaskRunner}. */
export interface TaskRunnerOptions {
  /** Where the tasks live. */
  readonly store: TaskStore;
  /**
   * How often the store is read while waiting for a task's end or a cancellation made by another process,
   * and the `pollInterval` suggested to clients, in ms (default 1,000).
   */
  readonly pollIntervalMs?: number;
  /** How long a running task is held without a heartbeat, in ms (default 15,000; heartbeats come more often). */
  readonly leaseMs?: number;
}

/** How a run ended, turned into what the store keeps. */
export interface TaskSettlement {
  readonly status: 'completed' | 'failed';
  readonly result: unknown;
  readonly statusMessage?: string;
}

/** One call to run as a task. */
export interface StartTaskOptions {
  /** Who may see the task. */
  readonly owner: string;
  /** The tool that runs. */
  readonly toolName: string;
  /** How long the task is kept, in ms (null: no expiry). */
  readonly ttlMs: number | null;
  /** Aborted when the task is cancelled (here or, seen at the next heartbeat, by another process). */
  readonly controller: AbortController;
  /**
   * Runs the guarded call, attaching `onLaunch` to its context (`attachToolLaunchHook`): the task is created
   * there, once the call is authorized. A call refused before it never creates a task.
   */
  readonly execute: (onLaunch: ToolLaunchHook) => Promise<unknown>;
  /** Turns the call's value or error into the stored result. */
  readonly settle: (outcome: { value: unknown } | { error: unknown }) => TaskSettlement;
  /** Told of every status this process gives the task (status notifications). */
  readonly onChange?: (record: TaskRecord) => void;
}

/** A task that started. */
export interface StartedTask {
  /** The task as created (`working`). */
  readonly record: TaskRecord;
  /** Settles when the run ended and its outcome is stored; gives the call's own value or rejects with its error. */
  readonly run: Promise<unknown>;
}

/** What {@link TaskRunner.cancel} did. */
export type TaskCancellation =
  | { readonly kind: 'cancelled'; readonly record: TaskRecord }
  | { readonly kind: 'terminal'; readonly record: TaskRecord }
  | { readonly kind: 'not-found' };

/**
 * Runs calls as tasks on a {@link TaskStore}: creates the task once the call is authorized, holds its
 * lease while it runs, stores its result by compare-and-set (a cancelled task keeps no late result), aborts
 * it when it is cancelled here or elsewhere, and waits for a task's end by watching and polling the store
 * (never on this process's state alone). Shared by the MCP server and `agent.startTool`.
 */
export class TaskRunner {
  readonly store: TaskStore;
  readonly pollIntervalMs: number;
  readonly leaseMs: number;
  private readonly running = new Map<string, AbortController>();

  /** @throws ToolInputError for a poll interval or lease that is not a whole number of ms >= 1. */
  constructor(options: TaskRunnerOptions) {
    this.store = options.store;
    this.pollIntervalMs = readMs(
      options.pollIntervalMs,
      TASK_RUNNER_DEFAULTS.pollIntervalMs,
      'taskPollIntervalMs',
    );
    this.leaseMs = readMs(options.leaseMs, TASK_RUNNER_DEFAULTS.leaseMs, 'taskLeaseMs');
  }

  /**
   * Starts a call as a task; resolves with the task once created (the call was authorized), rejects with the
   * call's error when it was refused or failed before.
   */
  start(options: StartTaskOptions): Promise<StartedTask> {
    const { store } = this;
    const { owner, controller } = options;
    let record: TaskRecord | undefined;
    let stopHeartbeat = (): void => {};
    let announce!: (record: TaskRecord) => void;
    let refuse!: (error: unknown) => void;
    const created = new Promise<TaskRecord>((resolve, reject) => {
      announce = resolve;
      refuse = reject;
    });
    const onLaunch: ToolLaunchHook = async () => {
      record = await store.create({
        owner,
        toolName: options.toolName,
        ttlMs: options.ttlMs,
        pollIntervalMs: this.pollIntervalMs,
        leaseMs: this.leaseMs,
      });
      this.running.set(record.taskId, controller);
      stopHeartbeat = this.holdLease(record, controller);
      announce(record);
    };
    const finish = async (outcome: { value: unknown } | { error: unknown }): Promise<void> => {
      const task = record as TaskRecord;
      stopHeartbeat();
      this.running.delete(task.taskId);
      if (controller.signal.aborted) return;
      const settlement = options.settle(outcome);
      const ended = await store.storeResult(
        task.taskId,
        owner,
        settlement.status,
        settlement.result,
        settlement.statusMessage,
      );
      if (ended) options.onChange?.(ended);
    };
    const run = Promise.resolve()
      .then(() => options.execute(onLaunch))
      .then(
        async (value) => {
          await finish({ value });
          return value;
        },
        async (error: unknown) => {
          if (!record) {
            refuse(error);
          } else {
            await finish({ error }).catch(() => undefined);
          }
          throw error;
        },
      );
    // The caller reads the run's outcome through the store; this keeps an unread rejection quiet.
    run.catch(() => undefined);
    return created.then((task) => ({ record: task, run }));
  }

  /** Cancels a task that is not terminal and aborts its run (here at once; elsewhere at its next heartbeat). */
  async cancel(
    taskId: string,
    owner: string,
    message = 'Cancelled by the client.',
  ): Promise<TaskCancellation> {
    const record = await this.store.updateStatus(taskId, owner, 'cancelled', message);
    if (record) {
      this.running.get(taskId)?.abort(new Error(message));
      return { kind: 'cancelled', record };
    }
    const current = await this.store.get(taskId, owner);
    return current ? { kind: 'terminal', record: current } : { kind: 'not-found' };
  }

  /**
   * Moves a running task between `working` and `input_required` (never out of a terminal status); returns
   * the new record or null.
   */
  markStatus(
    taskId: string,
    owner: string,
    status: TaskStatus,
    message?: string,
  ): Promise<TaskRecord | null> {
    return this.store.updateStatus(taskId, owner, status, message);
  }

  /**
   * Waits until the task is terminal (or gone): wakes on the store's changes seen here and polls it for
   * changes made by other processes. Resolves with the terminal record, or null when the task is unknown.
   *
   * @throws the signal's reason when it aborts first.
   */
  async waitForEnd(taskId: string, owner: string, signal?: AbortSignal): Promise<TaskRecord | null> {
    for (;;) {
      signal?.throwIfAborted();
      const record = await this.store.get(taskId, owner);
      if (!record || isTerminalTaskStatus(record.status)) return record;
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          unwatch?.();
          signal?.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, Math.min(this.pollIntervalMs, record.pollInterval));
        const unwatch = this.store.watch?.(taskId, done);
        signal?.addEventListener('abort', done, { once: true });
      });
    }
  }

  /** Heartbeats the task while it runs; a cancellation made elsewhere is seen here and aborts the run. */
  private holdLease(record: TaskRecord, controller: AbortController): () => void {
    const every = Math.max(1, Math.min(this.pollIntervalMs, Math.floor(this.leaseMs / 3)));
    let busy = false;
    const timer = setInterval(() => {
      if (busy) return;
      busy = true;
      void (async () => {
        try {
          const current = await this.store.get(record.taskId, record.owner);
          if (!current || current.status === 'cancelled') {
            controller.abort(new Error(current?.statusMessage ?? 'The task was cancelled or expired.'));
            return;
          }
          await this.store.heartbeat(record.taskId, record.owner, this.leaseMs);
        } catch {
          // The store is unavailable for now: the next beat tries again (the lease outlasts a few misses).
        } finally {
          busy = false;
        }
      })();
    }, every);
    timer.unref();
    return () => clearInterval(timer);
  }
}

function readMs(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new ToolInputError(`${name} must be a whole number of milliseconds >= 1, got ${String(value)}.`);
  }
  return value;
}
