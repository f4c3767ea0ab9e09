import { ToolRuntimeError } from './tool-runtime-error';
import type { ToolRuntimeErrorOptions } from './tool-runtime-error';

/** Options of {@link TaskResultTooLargeError}. */
export interface TaskResultTooLargeErrorOptions extends Omit<
  ToolRuntimeErrorOptions,
  'status' | 'retryable'
> {
  /** The tool whose result was not kept. */
  toolName: string;
  /** What the result counted: the bytes of its JSON and of its status message. */
  bytes: number;
  /** The store's `maxResultBytesPerTask`. */
  limit: number;
}

/**
 * A task's result is larger than its store keeps for one task (`maxResultBytesPerTask`): the tool ran, but the
 * task is stored `failed` with this error in place of its result. Not retryable as is.
 */
export class TaskResultTooLargeError extends ToolRuntimeError {
  override readonly name: string = 'TaskResultTooLargeError';
  override readonly code: string = 'TASK_RESULT_TOO_LARGE';
  /** What the result counted, in bytes. */
  readonly bytes: number;
  /** The bound it is over, in bytes. */
  readonly limit: number;

  /** Builds a message naming the tool, the sizes and how to raise the bound. */
  constructor(options: TaskResultTooLargeErrorOptions) {
    super(
      `The result of tool '${options.toolName}' was too large to keep: ${options.bytes} bytes, over the task ` +
        `store's ${options.limit} bytes per task (maxResultBytesPerTask). The tool did run; return a smaller ` +
        `result (or a link to it), or raise maxResultBytesPerTask of the task store.`,
      { ...options, retryable: false },
    );
    this.bytes = options.bytes;
    this.limit = options.limit;
  }

  protected override details(): Record<string, unknown> {
    return { ...super.details(), bytes: this.bytes, limit: this.limit };
  }
}
