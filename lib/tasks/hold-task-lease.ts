import { isTerminalTaskStatus } from './task-record';
import type { TaskRecord } from './task-record';
import type { TaskStore } from './task-store';

/** What {@link holdTaskLease} needs. */
export interface HoldTaskLeaseOptions {
  readonly store: TaskStore;
  /** The task as created (its lease started then). */
  readonly record: TaskRecord;
  /** How long one renewal holds the task, in ms. */
  readonly leaseMs: number;
  /** How often the store is read and the lease renewed, in ms (at most a third of the lease is used). */
  readonly pollIntervalMs: number;
  /** Aborted when the task ends elsewhere (cancelled, expired, lost) or its lease ran out unrenewed. */
  readonly controller: AbortController;
}

/**
 * Heartbeats a running task: reads it (a cancellation or an end recorded by another process aborts the run)
 * and extends its lease. When the lease runs out without a successful renewal (the store could not be
 * reached), the run is aborted: every other process already reports the task as lost. Returns the function
 * that stops the heartbeat.
 */
export function holdTaskLease(options: HoldTaskLeaseOptions): () => void {
  const { store, record, leaseMs, controller } = options;
  const every = Math.max(1, Math.min(options.pollIntervalMs, Math.floor(leaseMs / 3)));
  // The store computes a lease's deadline when it receives the call: a renewal counts from when it was sent.
  let renewedAt = Date.now();
  let busy = false;
  const stop = (): void => clearInterval(timer);
  const abort = (message: string): void => {
    stop();
    controller.abort(new Error(message));
  };
  const timer = setInterval(() => {
    // Checked on every tick, even while a call to the store hangs: a run must not outlive its lease.
    if (Date.now() - renewedAt >= leaseMs) {
      abort(
        `The task store could not be reached for ${leaseMs} ms (its lease ran out), so the task counts as lost; its run was stopped.`,
      );
      return;
    }
    if (busy) return;
    busy = true;
    void (async () => {
      const sentAt = Date.now();
      try {
        const current = await store.get(record.taskId, record.owner);
        if (!current || isTerminalTaskStatus(current.status)) {
          abort(current?.statusMessage ?? 'The task was cancelled or expired.');
          return;
        }
        await store.heartbeat(record.taskId, record.owner, leaseMs);
        renewedAt = sentAt;
      } catch {
        // The store is unavailable for now: the next beat tries again (the lease outlasts a few misses).
      } finally {
        busy = false;
      }
    })();
  }, every);
  timer.unref();
  return stop;
}
