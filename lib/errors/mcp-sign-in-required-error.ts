import type { ToolRuntimeErrorOptions } from './tool-runtime-error';
import { ToolRuntimeError } from './tool-runtime-error';

/** Options of {@link MCPSignInRequiredError}. */
export interface MCPSignInRequiredErrorOptions extends ToolRuntimeErrorOptions {
  /** The server URL that needs sign-in (query values redacted). */
  serverUrl?: string;
}

/**
 * A protected MCP server needs a user to sign in and the adapter has no way to get an authorization code
 * (no `auth.onAuthorizationUrl`), or the sign-in did not succeed. The message names the server and the
 * next step (`protolink mcp login --url …`, or the option to give).
 */
export class MCPSignInRequiredError extends ToolRuntimeError {
  override readonly name: string = 'MCPSignInRequiredError';
  override readonly code: string = 'MCP_SIGN_IN_REQUIRED';
  /** The server URL that needs sign-in. */
  readonly serverUrl: string | undefined;

  constructor(message: string, options: MCPSignInRequiredErrorOptions = {}) {
    super(message, options);
    this.serverUrl = options.serverUrl;
  }

  protected override details(): Record<string, unknown> {
    const details = super.details();
    if (this.serverUrl !== undefined) details.serverUrl = this.serverUrl;
    return details;
  }
}
