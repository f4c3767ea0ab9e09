import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, McpError, RELATED_TASK_META_KEY } from '@modelcontextprotocol/sdk/types.js';
import type {
  CallToolResult,
  CreateTaskResult,
  ServerNotification,
  ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { TooManyTasksError } from '../../../errors/too-many-tasks-error';
import { ToolInputError } from '../../../errors/tool-input-error';
import { attachToolCallChannel } from '../../../runtime/tool-call-scope';
import { attachToolLaunchHook } from '../../../runtime/tool-launch-hook';
import type { TaskSettlement } from '../../../tasks/task-runner';
import { isCallerFacingError } from '../../wire/is-caller-facing-error';
import type { McpCallExtra } from '../mcp-tool-call-channel';
import { TOO_MANY_CALLS_ERROR_CODE, unknownToolError } from '../../serve/served-tool-calls';
import type { ServedSessionState } from '../../serve/served-tool-calls';
import type { SessionToolCall, SessionToolCalls } from '../session-tool-calls';
import { toCallToolErrorResult, toCallToolResult } from '../../wire/to-call-tool-result';
import { readToolTaskSupport } from '../../wire/to-mcp-tool';
import { notifyStatus } from './served-tasks';
import type { ServedTasks } from './served-tasks';
import { TaskCallChannel } from './task-call-channel';

/** A task-augmented `tools/call`. */
export interface ServedTaskCall extends Omit<SessionToolCall, 'signal' | 'server'> {
  /** The session's SDK server: the task's notifications and requests go through it. */
  readonly server: Server;
  /** The `task.ttl` the client asked for. */
  readonly requestedTtl: unknown;
  /** The id of the stdio connection the call arrived on (its tasks belong to it); undefined over HTTP. */
  readonly stdioConnectionId?: string;
}

/**
 * Runs a task-augmented `tools/call`: the same checks as a plain call (validation, policy, approval, budget)
 * run first, and the task is created only once they pass; the answer is the `CreateTaskResult`, while the
 * tool goes on with its own signal (aborted by `tasks/cancel`, not by the request's end), the session's
 * stream for progress, log and questions (`input_required` while the client is asked), and its result
 * stored for `tasks/result` (a tool error is a `failed` task that keeps its `isError` result).
 *
 * @throws McpError -32602 for an unknown tool, invalid arguments or ttl; -32601 for a tool whose
 *   `taskSupport` is `forbidden`; -32029 when the session (or, stateless, the server) runs its most calls,
 *   or the task store holds its most tasks and all still run (`TooManyTasksError`); -32600 for a refused call.
 */
export async function startServedTask(
  calls: SessionToolCalls,
  tasks: ServedTasks,
  state: ServedSessionState,
  call: ServedTaskCall,
): Promise<CreateTaskResult> {
  const { agent } = calls;
  const { toolName, server } = call;
  const tool = agent.tools.get(toolName);
  if (!tool) throw unknownToolError(toolName, agent);
  if (readToolTaskSupport(tool) === 'forbidden') {
    throw new McpError(
      ErrorCode.MethodNotFound,
      `Tool '${toolName}' does not run as a task (its taskSupport is 'forbidden'); call it without 'task'.`,
    );
  }
  const ttlMs = tasks.resolveTtl(call.requestedTtl);
  const owner = tasks.ownerOf(call.sessionId, call.stdioConnectionId);
  // The run holds its slots (the session's, and the shared one of stateless serving) until it ends.
  const leaveGates = calls.enterGates(state);
  state.runningTasks += 1;
  let left = false;
  const leave = (): void => {
    if (left) return;
    left = true;
    state.runningTasks -= 1;
    leaveGates();
  };
  const controller = new AbortController();
  const related = { taskId: '' };
  const extra: McpCallExtra = {
    signal: controller.signal,
    _meta: call.extra._meta,
    // Sent on the session's stream, marked with the task: the SDK's own `relatedTask` option would queue them
    // for delivery through tasks/result, a message queue these servers do not keep.
    sendNotification: (notification: ServerNotification) =>
      server.notification(withRelatedTask(notification, related.taskId)),
    sendRequest: (request, schema, options) =>
      server.request(withRelatedTask(request as ServerRequest, related.taskId), schema, options),
  };
  const context = calls.newContext({ ...call, signal: controller.signal });
  const mark = async (status: 'working' | 'input_required'): Promise<void> => {
    const record = await tasks.runner.markStatus(related.taskId, owner, status).catch(() => null);
    if (record) notifyStatus(server, record);
  };
  attachToolCallChannel(
    context,
    new TaskCallChannel(calls.channelFor(state, { toolName, server, extra }), {
      waiting: () => mark('input_required'),
      resumed: () => mark('working'),
    }),
  );
  try {
    const started = await tasks.runner.start({
      owner,
      toolName,
      ttlMs,
      controller,
      execute: (onLaunch) => {
        attachToolLaunchHook(context, async (name) => {
          await onLaunch(name);
        });
        return agent.callToolInContext(toolName, context, call.args ?? {});
      },
      settle: (outcome) => {
        if ('error' in outcome && !isCallerFacingError(outcome.error)) {
          calls.reportError(outcome.error, toolName);
        }
        return toSettlement(
          'value' in outcome
            ? toCallToolResult(outcome.value, toolName)
            : toCallToolErrorResult(outcome.error, toolName),
        );
      },
      onChange: (record) => notifyStatus(server, record),
    });
    related.taskId = started.record.taskId;
    void started.run.catch(() => undefined).finally(leave);
    return tasks.created(started.record);
  } catch (error) {
    leave();
    throw toRefusal(error, toolName, calls);
  }
}

/**
 * What a run's `CallToolResult` is stored as: `completed`, or `failed` when it has `isError` (the 2025-11-25
 * schema: `failed` "includes cases where the tool call result has isError set to true"), the result kept for
 * `tasks/result` and its text as the status message.
 */
function toSettlement(result: CallToolResult): TaskSettlement {
  if (result.isError !== true) return { status: 'completed', result };
  const text = result.content.find((block) => block.type === 'text');
  return {
    status: 'failed',
    result,
    ...(text && text.type === 'text' ? { statusMessage: text.text } : {}),
  };
}

/** A call refused before its task existed, as the JSON-RPC error a task-augmented request gets. */
function toRefusal(error: unknown, toolName: string, calls: SessionToolCalls): McpError {
  if (error instanceof McpError) return error;
  // A full task store is refused as a full call gate is: the client may retry once a task ended.
  if (error instanceof TooManyTasksError) {
    return new McpError(TOO_MANY_CALLS_ERROR_CODE, error.message, { bound: error.bound, limit: error.limit });
  }
  if (!isCallerFacingError(error)) calls.reportError(error, toolName);
  const text = toCallToolErrorResult(error, toolName).content[0];
  const message = text && text.type === 'text' ? text.text : `Tool '${toolName}' did not run.`;
  return new McpError(
    error instanceof ToolInputError ? ErrorCode.InvalidParams : ErrorCode.InvalidRequest,
    message,
  );
}

/** The message with `_meta` naming the task it belongs to. */
function withRelatedTask<Message extends ServerNotification | ServerRequest>(
  message: Message,
  taskId: string,
): Message {
  const params = (message.params ?? {}) as Record<string, unknown> & { _meta?: Record<string, unknown> };
  return {
    ...message,
    params: { ...params, _meta: { ...params._meta, [RELATED_TASK_META_KEY]: { taskId } } },
  } as Message;
}
