import { TaskResultTooLargeError } from '../errors/task-result-too-large-error';
import { ToolInputError } from '../errors/tool-input-error';
import { ToolRuntimeError } from '../errors/tool-runtime-error';
import type { ToolLaunchHook } from '../runtime/tool-launch-hook';
import { holdTaskLease } from './hold-task-lease';
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

/** The statusMessage of the tasks a closing runner stops (see {@link TaskRunner.close}). */
export const SHUTDOWN_TASK_MESSAGE =
  'The server shut down while the task ran; its run was stopped. Start it again.';

/** The longest {@link TaskRunner.close} waits for the store to record the tasks it stopped, in ms. */
const CLOSE_STORE_WAIT_MS = 1_000;

/** The first pause before storing a run's outcome again, in ms (it doubles up to the poll interval). */
const FIRST_STORE_RETRY_MS = 50;

/** A task this runner runs. */
interface RunningTask {
  readonly record: TaskRecord;
  readonly controller: AbortController;
  readonly stopHeartbeat: () => void;
  readonly onChange?: (record: TaskRecord) => void;
  /** The run's outcome once it ended, while it is being stored. */
  settlement?: TaskSettlement;
}

/** What {@link TaskRunner.cancel} did. */
export type TaskCancellation =
  | { readonly kind: 'cancelled'; readonly record: TaskRecord }
  | { readonly kind: 'terminal'; readonly record: TaskRecord }
  | { readonly kind: 'not-found' };

/**
 * Runs calls as tasks on a {@link TaskStore}: creates the task once the call is authorized, holds its
 * lease while it runs (a run whose lease ran out unrenewed is aborted), stores its result by compare-and-set
 * (a cancelled task keeps no late result), retrying while the store is unavailable, aborts it when it is
 * cancelled here or elsewhere, and waits for a task's end by watching and polling the store (never on this
 * process's state alone). Shared by the MCP server and `agent.startTool`; a server closes its runner.
 */
export class TaskRunner {
  readonly store: TaskStore;
  readonly pollIntervalMs: number;
  readonly leaseMs: number;
  private readonly running = new Map<string, RunningTask>();
  // Aborted by close(): wakes the runs waiting to store their outcome again.
  private readonly closing = new AbortController();
  private closed: Promise<void> | undefined;
  /** Every run under way, settled or not yet (close waits for them to stop). */
  private readonly runs = new Set<Promise<void>>();

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
    let entry: RunningTask | undefined;
    let announce!: (record: TaskRecord) => void;
    let refuse!: (error: unknown) => void;
    const created = new Promise<TaskRecord>((resolve, reject) => {
      announce = resolve;
      refuse = reject;
    });
    const onLaunch: ToolLaunchHook = async () => {
      this.assertOpen(options.toolName);
      const record = await store.create({
        owner,
        toolName: options.toolName,
        ttlMs: options.ttlMs,
        pollIntervalMs: this.pollIntervalMs,
        leaseMs: this.leaseMs,
      });
      const stopHeartbeat = holdTaskLease({
        store,
        record,
        leaseMs: this.leaseMs,
        pollIntervalMs: this.pollIntervalMs,
        controller,
      });
      entry = { record, controller, stopHeartbeat, onChange: options.onChange };
      this.running.set(record.taskId, entry);
      // Closed while the task was being created: it is stopped like the others.
      if (this.closing.signal.aborted) void this.stop(entry);
      announce(record);
    };
    // Never throws: the run settles with the call's own outcome once it is stored (or could not be).
    const finish = async (task: RunningTask, outcome: { value: unknown } | { error: unknown }) => {
      try {
        if (controller.signal.aborted) return;
        task.settlement = options.settle(outcome);
        // The heartbeat goes on meanwhile: the lease must outlast a store that is unavailable for a moment.
        const ended = await this.storeSettlement(task, task.settlement, options.settle);
        if (ended) options.onChange?.(ended);
      } catch {
        // Not stored before the task's TTL ended or the runner closed (close() recorded the task itself).
      } finally {
        task.stopHeartbeat();
        if (this.running.get(task.record.taskId) === task) this.running.delete(task.record.taskId);
      }
    };
    const run = Promise.resolve()
      .then(() => options.execute(onLaunch))
      .then(
        async (value) => {
          if (entry) await finish(entry, { value });
          return value;
        },
        async (error: unknown) => {
          if (!entry) refuse(error);
          else await finish(entry, { error });
          throw error;
        },
      );
    // The caller reads the run's outcome through the store; this keeps an unread rejection quiet, and lets
    // close() wait for the run to stop.
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.runs.add(settled);
    void settled.then(() => this.runs.delete(settled));
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
      this.running.get(taskId)?.controller.abort(new Error(message));
      return { kind: 'cancelled', record };
    }
    const current = await this.store.get(taskId, owner);
    return current ? { kind: 'terminal', record: current } : { kind: 'not-found' };
  }

  /**
   * Cancels every task of `owner` that runs here (recorded `cancelled` with `message`, its signal aborted),
   * as when the session that owned them ended; a run that has ended already keeps its outcome.
   */
  async cancelOwned(owner: string, message: string): Promise<void> {
    const owned = [...this.running.values()].filter(
      (task) => task.record.owner === owner && !task.settlement,
    );
    await Promise.all(
      owned.map(async (task) => {
        const { taskId } = task.record;
        const record = await this.store.updateStatus(taskId, owner, 'cancelled', message).catch(() => null);
        // Aborted even when the store could not be reached: nobody can read or cancel the task any more.
        task.controller.abort(new Error(message));
        if (record) task.onChange?.(record);
      }),
    );
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

  /**
   * Stops every task this runner runs, as a server does when it closes: aborts each run's signal and records
   * the task `failed` with {@link SHUTDOWN_TASK_MESSAGE} (a run that had ended keeps its outcome when it can
   * still be stored), and waits for the runs to stop. The store and the runs are given at most one second:
   * this never hangs on a store that is down (its tasks are then reported lost once their leases run out) or
   * on a tool that ignores its signal. Later tasks are refused.
   */
  close(): Promise<void> {
    return (this.closed ??= this.stopAll());
  }

  private async stopAll(): Promise<void> {
    this.closing.abort();
    const tasks = [...this.running.values()];
    if (tasks.length === 0 && this.runs.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    // The tasks recorded as ended, and their runs stopped (the tools saw their signal abort), within a second.
    await Promise.race([
      Promise.all([...tasks.map((task) => this.stop(task)), ...this.runs]),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_STORE_WAIT_MS))),
    ]);
    clearTimeout(timer);
  }

  /** Aborts a run and records its task as ended by the shutdown (best effort). */
  private async stop(task: RunningTask): Promise<void> {
    task.stopHeartbeat();
    const { settlement } = task;
    if (!settlement) task.controller.abort(new Error(SHUTDOWN_TASK_MESSAGE));
    const { taskId, owner } = task.record;
    try {
      const ended = settlement
        ? await this.store.storeResult(
            taskId,
            owner,
            settlement.status,
            settlement.result,
            settlement.statusMessage,
          )
        : await this.store.updateStatus(taskId, owner, 'failed', SHUTDOWN_TASK_MESSAGE);
      if (ended) task.onChange?.(ended);
    } catch {
      // The store is down: the task is reported lost once its lease runs out.
    }
  }

  /**
   * Stores a run's outcome, trying again with a growing pause (up to the poll interval) while the store
   * fails, until it is stored or the task's TTL ended (or the runner closed). A result too large for the
   * store is replaced by that error, settled as the run's own errors are (the task ends `failed` saying so).
   * Returns the ended record, or null when the task was already terminal (cancelled, or lost while the store
   * was down).
   *
   * @throws the store's last error when it gave up.
   */
  private async storeSettlement(
    task: RunningTask,
    settlement: TaskSettlement,
    settle: StartTaskOptions['settle'],
  ): Promise<TaskRecord | null> {
    const { record } = task;
    const expiresAt = record.ttl === null ? Infinity : Date.parse(record.createdAt) + record.ttl;
    let pause = FIRST_STORE_RETRY_MS;
    let tooLarge: TaskResultTooLargeError | undefined;
    for (;;) {
      try {
        return await this.store.storeResult(
          record.taskId,
          record.owner,
          settlement.status,
          settlement.result,
          settlement.statusMessage,
        );
      } catch (error) {
        if (error instanceof TaskResultTooLargeError) {
          // Even the error is too large (a tiny bound): the task ends with the first one's message alone.
          if (tooLarge) {
            return this.store.updateStatus(record.taskId, record.owner, 'failed', tooLarge.message);
          }
          tooLarge = error;
          settlement = task.settlement = settle({ error });
          continue;
        }
        if (this.closing.signal.aborted || Date.now() + pause >= expiresAt) throw error;
        await pauseFor(pause, this.closing.signal);
        pause = Math.min(pause * 2, Math.max(FIRST_STORE_RETRY_MS, this.pollIntervalMs));
      }
    }
  }

  /** @throws ToolRuntimeError once the runner is closed (its server shuts down). */
  private assertOpen(toolName: string): void {
    if (!this.closing.signal.aborted) return;
    throw new ToolRuntimeError(
      `Tool '${toolName}' was not started as a task: the server is shutting down. Start it again on a running server.`,
      { retryable: true },
    );
  }
}

/** Waits `ms`, or less when `signal` aborts. */
function pauseFor(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

function readMs(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new ToolInputError(`${name} must be a whole number of milliseconds >= 1, got ${String(value)}.`);
  }
  return value;
}
