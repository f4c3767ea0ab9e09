import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolRequest } from '@modelcontextprotocol/sdk/types.js';
import type { SessionToolCalls } from '../session-tool-calls';
import { readToolTaskSupport } from '../../wire/to-mcp-tool';

/**
 * Returns the `task` of a `tools/call` that asks to run as a task, or undefined for a plain call.
 *
 * @throws McpError -32601 for a plain call of a tool whose `taskSupport` is `required`.
 */
export function checkTaskRequest(
  calls: SessionToolCalls,
  request: CallToolRequest,
): { ttl?: number } | undefined {
  const task = (request.params as { task?: { ttl?: number } }).task;
  if (task !== undefined) return task;
  const tool = calls.agent.tools.get(request.params.name);
  if (tool && readToolTaskSupport(tool) === 'required') {
    throw new McpError(
      ErrorCode.MethodNotFound,
      `Tool '${request.params.name}' runs only as a task (its taskSupport is 'required'); call it with 'task' (tools/call params.task).`,
    );
  }
  return undefined;
}
