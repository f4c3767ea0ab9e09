import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CancelTaskRequestSchema,
  GetTaskPayloadRequestSchema,
  GetTaskRequestSchema,
  ListTasksRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { ServedTasks } from './served-tasks';

/** The `tasks` capability a server with task-capable tools declares. */
export const SERVED_TASKS_CAPABILITY = Object.freeze({
  list: {},
  cancel: {},
  requests: { tools: { call: {} } },
});

/**
 * Answers `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel` on one session's server, each for the
 * request's owner only (its session, the server's token subject, or the stdio connection
 * `stdioConnectionId`).
 */
export function registerTaskHandlers(server: Server, tasks: ServedTasks, stdioConnectionId?: string): void {
  const ownerOf = (sessionId: string | undefined) => tasks.ownerOf(sessionId, stdioConnectionId);
  server.setRequestHandler(GetTaskRequestSchema, (request, extra) =>
    tasks.get(request.params.taskId, ownerOf(extra.sessionId)),
  );
  server.setRequestHandler(GetTaskPayloadRequestSchema, (request, extra) =>
    tasks.result(request.params.taskId, ownerOf(extra.sessionId), extra.signal),
  );
  server.setRequestHandler(ListTasksRequestSchema, (request, extra) =>
    tasks.list(ownerOf(extra.sessionId), request.params?.cursor),
  );
  server.setRequestHandler(CancelTaskRequestSchema, (request, extra) =>
    tasks.cancel(request.params.taskId, ownerOf(extra.sessionId), server),
  );
}
