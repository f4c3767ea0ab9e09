import { ToolRuntimeError } from './tool-runtime-error';
import type { ToolRuntimeErrorOptions } from './tool-runtime-error';

/** Options of {@link TooManyTasksError}. */
export interface TooManyTasksErrorOptions extends Omit<ToolRuntimeErrorOptions, 'status' | 'retryable'> {
  /** The tool that was not started. */
  toolName: string;
  /** The bound that is full: the owner's (`maxTasksPerOwner`) or the store's total (`maxTasks`). */
  bound: 'maxTasksPerOwner' | 'maxTasks';
  /** Its value. */
  limit: number;
}

/**
 * A task store holds its most tasks and every one of them is still running (an ended one would have been
 * forgotten to make room), so a new task is refused before its tool runs. Retryable once a task ends.
 * Served, it is the JSON-RPC error -32029 (as for too many concurrent calls).
 */
export class TooManyTasksError extends ToolRuntimeError {
  override readonly name: string = 'TooManyTasksError';
  override readonly code: string = 'TOO_MANY_TASKS';
  /** The bound that is full. */
  readonly bound: 'maxTasksPerOwner' | 'maxTasks';
  /** Its value. */
  readonly limit: number;

  /** Builds a message naming the tool, the full bound and what to do. */
  constructor(options: TooManyTasksErrorOptions) {
    const whose =
      options.bound === 'maxTasksPerOwner'
        ? `this session (or token) already has ${options.limit} tasks kept`
        : `the task store already holds ${options.limit} tasks`;
    super(
      `Tool '${options.toolName}' was not started as a task: ${whose} (${options.bound}), all still running. ` +
        `Wait for one to end or cancel one, then retry; or raise ${options.bound} of the task store.`,
      { ...options, retryable: true },
    );
    this.bound = options.bound;
    this.limit = options.limit;
  }

  protected override details(): Record<string, unknown> {
    return { ...super.details(), bound: this.bound, limit: this.limit };
  }
}
