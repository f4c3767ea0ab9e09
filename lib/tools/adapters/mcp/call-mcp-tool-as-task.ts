import { AsyncResource } from 'node:async_hooks';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { ToolRuntimeError } from '../../../errors/tool-runtime-error';
import type { RunContext } from '../../../runtime/run-context';

/** Options of {@link callMcpToolAsTask}. */
export interface McpTaskCallOptions {
  /** Aborts the call: the task is then cancelled on the server (`tasks/cancel`). */
  readonly signal: AbortSignal;
  /** Bound on each request (creation, each poll), in ms. */
  readonly timeoutMs: number;
  /** Bound on the wait of `tasks/result` while the task waits for the user (`input_required`), in ms. */
  readonly maxTotalTimeoutMs: number;
  /** The caller's run: the server's progress is forwarded to it. */
  readonly context?: RunContext;
  /** The poll interval when the server suggests none, in ms (default 1,000). */
  readonly defaultPollIntervalMs?: number;
}

/**
 * Calls a tool as an MCP task: `tools/call` with `task`, then `tasks/get` at the server's `pollInterval`
 * until the task ends, then `tasks/result` (while the task waits for the user, `tasks/result` is asked at
 * once: it carries the questions and returns when the task ends). Progress goes to the run; aborting the
 * signal sends `tasks/cancel`. Returns the same `CallToolResult` as a plain call.
 *
 * @throws the SDK's errors (McpError, timeouts); ToolRuntimeError when the server cancelled the task itself.
 */
export async function callMcpToolAsTask(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  options: McpTaskCallOptions,
): Promise<CallToolResult> {
  const { signal, timeoutMs, context } = options;
  // Bound to this call's async context: progress arrives from the transport's, where the caller's tool-call
  // scope (an in-process agent's channel) would not be found.
  const onprogress = context
    ? AsyncResource.bind((progress: Progress) => {
        void context
          .reportProgress(progress.progress, progress.total, progress.message)
          .catch(() => undefined);
      })
    : undefined;
  // Not aborted with the signal: a task created while the caller gave up would run on unowned. The caller
  // is answered at once; the task is cancelled as soon as its id is known.
  const creating = client.request(
    { method: 'tools/call', params: { name, arguments: args, task: {} } },
    CreateTaskResultSchema,
    { timeout: timeoutMs, ...(onprogress ? { onprogress } : {}) },
  );
  const created = await raceAbort(creating, signal).catch((error: unknown) => {
    if (signal.aborted) {
      void creating
        .then((late) => client.experimental.tasks.cancelTask(late.task.taskId, { timeout: timeoutMs }))
        .catch(() => undefined);
    }
    throw error;
  });
  const taskId = created.task.taskId;
  const cancelRemote = (): void => {
    void client.experimental.tasks.cancelTask(taskId, { timeout: timeoutMs }).catch(() => undefined);
  };
  signal.addEventListener('abort', cancelRemote, { once: true });
  try {
    let task = created.task;
    for (;;) {
      if (task.status === 'cancelled') {
        throw new ToolRuntimeError(
          `Task ${taskId} of tool '${name}' was cancelled by the server${task.statusMessage ? `: ${task.statusMessage}` : ''}.`,
        );
      }
      if (task.status !== 'working') {
        const wait = task.status === 'input_required' ? options.maxTotalTimeoutMs : timeoutMs;
        return (await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema, {
          signal,
          timeout: wait,
        })) as CallToolResult;
      }
      await sleep(task.pollInterval ?? options.defaultPollIntervalMs ?? 1_000, signal);
      task = await client.experimental.tasks.getTask(taskId, { signal, timeout: timeoutMs });
    }
  } finally {
    signal.removeEventListener('abort', cancelRemote);
  }
}

function raceAbort<T>(pending: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    pending.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
