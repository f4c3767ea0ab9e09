import { RunContext } from '../runtime/run-context';
import { attachToolLaunchHook } from '../runtime/tool-launch-hook';
import type { TaskRunner } from './task-runner';
import { ToolTask } from './tool-task';

/** Options of `agent.startTool`. */
export interface StartToolOptions {
  /** The run the call belongs to (its budget, permissions, session); the task runs in a child of it. */
  context?: RunContext;
  /** How long the task and its result are kept, in ms (default: one hour; null: until the store is cleared). */
  ttlMs?: number | null;
  /** Who may read the task in the store (default: the context's session id, else `local`). */
  owner?: string;
}

/** Default of {@link StartToolOptions.ttlMs}: one hour. */
export const DEFAULT_IN_PROCESS_TASK_TTL_MS = 60 * 60 * 1000;

/** What `startToolTask` needs of an agent: its one guarded call path. */
export interface TaskCapableAgent {
  callToolInContext(name: string, context: RunContext, args?: Record<string, unknown>): Promise<unknown>;
}

/**
 * Starts a tool through the agent's guarded path as a task of `runner`'s store; resolves once the call is
 * authorized and the task exists.
 *
 * @throws whatever `callToolInContext` throws before the tool starts (unknown tool, invalid arguments,
 *   denied or unapproved call, budget, cancellation): no task is created then.
 */
export async function startToolTask(
  agent: TaskCapableAgent,
  runner: TaskRunner,
  name: string,
  args: Record<string, unknown> | undefined,
  options: StartToolOptions = {},
): Promise<ToolTask> {
  const controller = new AbortController();
  const context = options.context
    ? options.context.child({ signal: controller.signal })
    : new RunContext({ signal: controller.signal });
  const owner = options.owner ?? context.sessionId ?? 'local';
  const started = await runner.start({
    owner,
    toolName: name,
    ttlMs: options.ttlMs === undefined ? DEFAULT_IN_PROCESS_TASK_TTL_MS : options.ttlMs,
    controller,
    execute: (onLaunch) => {
      attachToolLaunchHook(context, onLaunch);
      return agent.callToolInContext(name, context, args ?? {});
    },
    settle: (outcome) =>
      'value' in outcome
        ? { status: 'completed', result: { value: outcome.value } }
        : {
            status: 'failed',
            result: { error: describeError(outcome.error) },
            statusMessage: messageOf(outcome.error),
          },
  });
  return new ToolTask(started.record.taskId, owner, runner, started.run);
}

function describeError(error: unknown): unknown {
  const toJSON = (error as { toJSON?: () => unknown } | null)?.toJSON;
  if (typeof toJSON === 'function') return toJSON.call(error);
  return { name: (error as Error)?.name ?? 'Error', message: messageOf(error) };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
