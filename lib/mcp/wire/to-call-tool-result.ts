import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ToolResult } from '../../tools/tool-result';
import { isAuthorizationFailure, isCallerFacingError } from './is-caller-facing-error';
import { toRichCallToolResult } from './to-rich-call-tool-result';

/** The `_meta` key under which an error result carries the error's safe JSON form. */
export const ERROR_META_KEY = 'dev.protolink/error';

/**
 * The key under which a number, boolean or array result is sent as `structuredContent` (MCP requires an
 * object there): `3` is sent as `{ result: 3 }` with the text `3`, matching the output schema `toMcpTool`
 * advertises for such tools.
 */
export const WRAPPED_RESULT_KEY = 'result';

/**
 * Returns the MCP result of a tool's return value: an object becomes `structuredContent` plus its JSON as
 * text; a number, boolean or array becomes `structuredContent: { result: value }` plus its own JSON as text;
 * a string becomes text, `null`/`undefined` no content, anything else its JSON as text.
 */
export function toCallToolResult(value: unknown, toolName: string): CallToolResult {
  if (value === undefined || value === null) return { content: [] };
  if (ToolResult.isToolResult(value)) return toRichCallToolResult(value);
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] };
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    text = undefined;
  }
  if (text === undefined) {
    return toErrorResult(
      `Tool '${toolName}' returned a value that cannot be sent as JSON (${describeType(value)}).`,
      {
        name: 'ToolRuntimeError',
        code: 'TOOL_RUNTIME',
        message: 'result is not JSON-serializable',
        toolName,
      },
    );
  }
  const plain: unknown = JSON.parse(text);
  if (typeof plain === 'object' && plain !== null && !Array.isArray(plain)) {
    return { content: [{ type: 'text', text }], structuredContent: plain as Record<string, unknown> };
  }
  if (typeof plain === 'number' || typeof plain === 'boolean' || Array.isArray(plain)) {
    return { content: [{ type: 'text', text }], structuredContent: { [WRAPPED_RESULT_KEY]: plain } };
  }
  return { content: [{ type: 'text', text }] };
}

/**
 * Returns the MCP error result (`isError: true`) of a failed call: a caller-facing Protolink error's message
 * and its JSON form (never the stack or cause); a failing policy or approval handler, or anything else, a
 * generic message (see {@link isCallerFacingError}), so internals never reach the client.
 */
export function toCallToolErrorResult(error: unknown, toolName: string): CallToolResult {
  if (isCallerFacingError(error)) return toErrorResult(error.message, error.toJSON());
  if (isAuthorizationFailure(error)) {
    return toErrorResult(
      `Tool '${toolName}' did not run: the server could not authorize the call (its policy or approval step failed); the server's log has the details.`,
      {
        name: 'ActionPolicyError',
        code: 'ACTION_POLICY',
        message: 'authorization failed',
        toolName,
      },
    );
  }
  return toErrorResult(
    `Tool '${toolName}' failed with an internal error; the server's log has the details.`,
    {
      name: 'InternalError',
      code: 'INTERNAL',
      message: 'internal error',
      toolName,
    },
  );
}

function toErrorResult(text: string, json: Record<string, unknown>): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }], _meta: { [ERROR_META_KEY]: json } };
}

function describeType(value: unknown): string {
  if (typeof value === 'bigint') return 'a bigint';
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'symbol') return 'a symbol';
  return 'a circular or non-JSON structure';
}
