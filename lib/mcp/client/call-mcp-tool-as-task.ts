import { AsyncResource } from 'node:async_hooks';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  ErrorCode,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { ToolRuntimeError } from '../../errors/tool-runtime-error';
import type { RunContext } from '../../runtime/run-context';

/** Options of {@link callMcpToolAsTask}. */
export interface McpTaskCallOptions {
  /** Aborts the call: the task is then cancelled on the server (`tasks/cancel`). */
  readonly signal: AbortSignal;
  /** Bound on each request (creation, each poll), in ms. */
  readonly timeoutMs: number;
  /**
   * Bound on one wait of `tasks/result` while the task waits for the user (`input_required`), in ms; when it
   * passes, the task's status is read again and the wait starts over while the task runs.
   */
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
 * signal sends `tasks/cancel`, and so does giving up for any other reason (a poll that failed). Returns the
 * same `CallToolResult` as a plain call: a `completed` task's result, or the `isError` result a `failed` one
 * keeps (a tool error ends a task `failed`; the caller reads it as it reads a plain call's error).
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
  let ended = false;
  try {
    let task = created.task;
    for (;;) {
      if (task.status === 'cancelled') {
        ended = true;
        throw new ToolRuntimeError(
          `Task ${taskId} of tool '${name}' was cancelled by the server${task.statusMessage ? `: ${task.statusMessage}` : ''}.`,
        );
      }
      if (task.status === 'input_required') {
        // tasks/result carries the questions and returns when the task ends; it is bounded by
        // maxTotalTimeoutMs, and when that passes first, the task is looked at again: the whole run is bounded
        // by the task's own TTL, not by one wait.
        try {
          const result = await withLinkedSignal(signal, (linked) =>
            client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema, {
              signal: linked,
              timeout: options.maxTotalTimeoutMs,
            }),
          );
          ended = true;
          return result as CallToolResult;
        } catch (error) {
          if (signal.aborted || !isRequestTimeout(error)) throw error;
        }
      } else if (task.status !== 'working') {
        const result = await withLinkedSignal(signal, (linked) =>
          client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema, {
            signal: linked,
            timeout: timeoutMs,
          }),
        );
        ended = true;
        return result as CallToolResult;
      } else {
        await sleep(task.pollInterval ?? options.defaultPollIntervalMs ?? 1_000, signal);
      }
      task = await withLinkedSignal(signal, (linked) =>
        client.experimental.tasks.getTask(taskId, { signal: linked, timeout: timeoutMs }),
      );
    }
  } catch (error) {
    // A call given up on for any reason (a poll that failed, the connection lost) leaves no task running.
    if (!ended && !signal.aborted) cancelRemote();
    throw error;
  } finally {
    signal.removeEventListener('abort', cancelRemote);
  }
}

/**
 * Runs one request with a signal of its own that follows `signal`: the SDK adds an abort listener to the
 * signal of every request and never removes it, so the call's signal, given to every poll of a long task,
 * would gather one per poll (and fire them all, as stale cancellations, when the call is cancelled).
 */
async function withLinkedSignal<T>(
  signal: AbortSignal,
  run: (linked: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const follow = (): void => controller.abort(signal.reason);
  if (signal.aborted) follow();
  else signal.addEventListener('abort', follow, { once: true });
  try {
    return await run(controller.signal);
  } finally {
    signal.removeEventListener('abort', follow);
  }
}

function isRequestTimeout(error: unknown): boolean {
  return error instanceof McpError && error.code === ErrorCode.RequestTimeout;
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
