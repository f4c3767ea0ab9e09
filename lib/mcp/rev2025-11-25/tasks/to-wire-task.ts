import type { Task } from '@modelcontextprotocol/sdk/types.js';
import type { TaskRecord } from '../../../tasks/task-record';

/** The MCP form of a task (`tasks/get`, `tasks/list`, `CreateTaskResult`, status notifications). */
export function toWireTask(record: TaskRecord): Task {
  return {
    taskId: record.taskId,
    status: record.status,
    ...(record.statusMessage === undefined ? {} : { statusMessage: record.statusMessage }),
    createdAt: record.createdAt,
    lastUpdatedAt: record.lastUpdatedAt,
    ttl: record.ttl,
    pollInterval: record.pollInterval,
  };
}
