import type {
  ElicitationResult,
  ElicitationSchemaInput,
  SamplingRequest,
  SamplingResult,
  ToolCallChannel,
  ToolLogLevel,
} from '../../../runtime/tool-call-channel';

/** What a task's channel tells about the waits for the client. */
export interface TaskWaitListener {
  /** The tool now waits for the client (`input_required`). */
  waiting(): Promise<void>;
  /** The client answered (`working` again). */
  resumed(): Promise<void>;
}

/**
 * The channel of a tool running as a task: the call's own channel (progress, log, questions, sampling, sent
 * on the session's stream since the request that created the task has been answered), with the task's
 * status `input_required` while the tool waits for the client's answer.
 */
export class TaskCallChannel implements ToolCallChannel {
  constructor(
    private readonly inner: ToolCallChannel,
    private readonly listener: TaskWaitListener,
  ) {}

  progress(progress: number, total: number | undefined, message: string | undefined): Promise<void> {
    return this.inner.progress(progress, total, message);
  }

  log(level: ToolLogLevel, data: unknown, logger: string | undefined): Promise<void> {
    return this.inner.log(level, data, logger);
  }

  elicit(
    message: string,
    schema: ElicitationSchemaInput,
    signal: AbortSignal,
  ): Promise<ElicitationResult<unknown>> {
    return this.waitFor(() => this.inner.elicit(message, schema, signal));
  }

  sample(request: SamplingRequest, signal: AbortSignal): Promise<SamplingResult> {
    return this.waitFor(() => this.inner.sample(request, signal));
  }

  canElicit(): boolean {
    return this.inner.canElicit();
  }

  closeStream(): boolean {
    return false;
  }

  private async waitFor<T>(ask: () => Promise<T>): Promise<T> {
    await this.listener.waiting();
    try {
      return await ask();
    } finally {
      await this.listener.resumed();
    }
  }
}
