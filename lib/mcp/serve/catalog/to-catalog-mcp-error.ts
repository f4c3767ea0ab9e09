import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { ActionPolicyError } from '../../../errors/action-policy-error';
import { ResourceNotFoundError } from '../../../errors/resource-not-found-error';
import { ToolInputError } from '../../../errors/tool-input-error';
import { ToolValidationError } from '../../../errors/tool-validation-error';
import { isCallerFacingError } from '../../wire/is-caller-facing-error';

/** JSON-RPC error code of an unknown resource (MCP's "Resource not found"). */
export const RESOURCE_NOT_FOUND_ERROR_CODE = -32002;
/** JSON-RPC error code of a resource read or prompt the agent's policy or approver refused. */
export const CATALOG_ACCESS_DENIED_ERROR_CODE = -32003;

/**
 * An McpError whose message is exactly `message`: the SDK's constructor prefixes `MCP error <code>:`, which
 * the client adds again when it reads the error, so the wire would carry the prefix twice.
 */
export function toWireMcpError(code: number, message: string, data?: unknown): McpError {
  const error = new McpError(code, message, data);
  Object.defineProperty(error, 'message', { value: message, configurable: true, writable: true });
  return error;
}

/**
 * Maps a failed catalog request to the JSON-RPC error the client gets: an unknown resource is -32002 with the
 * URI in `data`; bad arguments and unknown prompts -32602 (validation issues in `data`); a denial or a missing
 * approval -32003 with the policy's message; other Protolink errors -32603 with their message; anything else
 * -32603 with a generic message (details go to `onError`). A denied read is an error, never data.
 */
export function toCatalogMcpError(
  error: unknown,
  what: string,
  onError: ((error: unknown, name: string) => void) | undefined,
): McpError {
  if (error instanceof McpError) return error;
  if (error instanceof ResourceNotFoundError)
    return toWireMcpError(RESOURCE_NOT_FOUND_ERROR_CODE, error.message, { uri: error.uri });
  if (error instanceof ToolValidationError)
    return toWireMcpError(ErrorCode.InvalidParams, error.message, { issues: error.issues });
  if (error instanceof ToolInputError) return toWireMcpError(ErrorCode.InvalidParams, error.message);
  if (!isCallerFacingError(error)) {
    onError?.(error, what);
    return toWireMcpError(ErrorCode.InternalError, `${what} failed on the server.`);
  }
  if (error instanceof ActionPolicyError)
    return toWireMcpError(CATALOG_ACCESS_DENIED_ERROR_CODE, error.message);
  return toWireMcpError(ErrorCode.InternalError, error.message);
}
