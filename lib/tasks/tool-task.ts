import { ToolInputError } from '../errors/tool-input-error';
import type { TaskRecord, TaskStatus } from './task-record';
import type { TaskRunner } from './task-runner';

/**
 * A tool started with `agent.startTool(name, args)`: its task in the agent's task store, and its run. The
 * call went through the agent's checks before the task existed (a refused call rejects `startTool` itself).
 */
export class ToolTask {
  /** @internal Made by `agent.startTool`. */
  constructor(
    /** The task's id in the store. */
    readonly id: string,
    private readonly owner: string,
    private readonly runner: TaskRunner,
    private readonly run: Promise<unknown>,
  ) {}

  /**
   * The task's status, read from the store: `working`, `input_required`, `completed`, `failed` (the tool
   * failed, or its process was lost), `cancelled`.
   *
   * @throws ToolInputError when the task expired (its TTL passed) or the store no longer knows it.
   */
  async status(): Promise<TaskStatus> {
    return (await this.info()).status;
  }

  /**
   * The whole task record (status message, creation time, TTL, poll interval).
   *
   * @throws ToolInputError when the task expired or the store no longer knows it.
   */
  async info(): Promise<TaskRecord> {
    const record = await this.runner.store.get(this.id, this.owner);
    if (!record) {
      throw new ToolInputError(
        `Task ${this.id} is not known: it expired (its TTL passed) or was never created here.`,
      );
    }
    return record;
  }

  /**
   * Waits for the end of the run and returns what the tool returned, as `callTool` would.
   *
   * @throws the tool's own error, or ToolCancelledError when the task was cancelled.
   */
  result(): Promise<unknown> {
    return this.run;
  }

  /** Cancels the task (its context's signal aborts); returns false when it had already ended. */
  async cancel(reason = 'Cancelled by the application.'): Promise<boolean> {
    return (await this.runner.cancel(this.id, this.owner, reason)).kind === 'cancelled';
  }
}
