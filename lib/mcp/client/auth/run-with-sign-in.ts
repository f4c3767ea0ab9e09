import { auth as runAuth, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { MCPSignInRequiredError } from '../../../errors/mcp-sign-in-required-error';
import { ToolRuntimeError } from '../../../errors/tool-runtime-error';
import type { McpAuthHandle } from './resolve-mcp-auth';

/**
 * Runs one request (opening a session, a listing, a call) on a protected server. The SDK transport signs in
 * on `401` and steps up on `403 insufficient_scope`; when that needed the user, the code returned by
 * `onAuthorizationUrl` is exchanged here (`finishAuth`) and the request is sent again, at most
 * `maxAttempts` times in all. A request that still cannot be authorized fails with an error naming the
 * server and what to do; tokens and codes never appear in it.
 *
 * @throws MCPSignInRequiredError when sign-in is needed and cannot happen, or did not succeed.
 */
export async function runWithSignIn<T>(
  handle: McpAuthHandle | undefined,
  finishAuth: (code: string) => Promise<void>,
  work: () => Promise<T>,
): Promise<T> {
  if (!handle) return work();
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      const signIn = findInChain(error, (item) => item instanceof MCPSignInRequiredError);
      if (signIn) throw signIn;
      const refusal = findInChain(error, isAuthRefusal);
      if (!refusal) throw error;
      const code = handle.own?.takePendingCode();
      if (code === undefined) throw toSignInError(handle, refusal);
      if (attempt >= handle.maxAttempts) {
        throw new MCPSignInRequiredError(
          `MCP server '${handle.serverName}' (${handle.displayUrl}) still refused access after ${attempt} sign-in attempts (auth.maxAttempts); check that the account may use this server and the scopes it asks for.`,
          { provider: handle.serverName, serverUrl: handle.displayUrl, status: statusOf(refusal) },
        );
      }
      await finishAuth(code);
    }
  }
}

/**
 * Renews expired tokens before a session opens (refresh token grant), so the first request does not need a
 * `401` to find out. A refresh that cannot happen is left to the `401` path.
 */
export async function refreshIfExpired(
  handle: McpAuthHandle | undefined,
  fetchFn?: FetchLike,
): Promise<void> {
  if (!handle?.own || !(await handle.own.needsRefresh())) return;
  try {
    await runAuth(handle.provider, { serverUrl: handle.serverUrl, fetchFn });
  } catch {
    // the server's 401 on the first request starts a full sign-in
  }
}

/** The exchange of an authorization code on a session's transport (`finishAuth` of the SDK transports). */
export async function finishAuthOn(transport: unknown, code: string): Promise<void> {
  const finisher = transport as { finishAuth?: (code: string) => Promise<void> };
  await finisher.finishAuth?.(code);
}

/**
 * A fetch that tells the provider when the server asks for a larger scope (`403` with `insufficient_scope`),
 * so the SDK's re-authorization asks the user for it instead of refreshing the old token.
 */
export function watchStepUp(fetchFn: FetchLike, handle: McpAuthHandle | undefined): FetchLike {
  const own = handle?.own;
  if (!own) return fetchFn;
  return async (input, init) => {
    const response = await fetchFn(input, init);
    if (
      response.status === 403 &&
      /insufficient_scope/.test(response.headers.get('www-authenticate') ?? '')
    ) {
      own.startStepUp();
    }
    return response;
  };
}

function toSignInError(handle: McpAuthHandle, refusal: unknown): ToolRuntimeError {
  const status = statusOf(refusal);
  if (status === 403) {
    return new MCPSignInRequiredError(
      `MCP server '${handle.serverName}' (${handle.displayUrl}) refused access (403 insufficient_scope) even after asking for the larger scope; the account may lack the permission.`,
      { cause: refusal, provider: handle.serverName, serverUrl: handle.displayUrl, status },
    );
  }
  if (handle.own) return handle.own.signInRequired(refusal);
  return new MCPSignInRequiredError(
    `MCP server '${handle.serverName}' (${handle.displayUrl}) needs sign-in and the OAuthClientProvider given as 'auth' did not provide tokens: complete its authorization (redirectToAuthorization) and call again, or use the auth options with onAuthorizationUrl.`,
    { cause: refusal, provider: handle.serverName, serverUrl: handle.displayUrl },
  );
}

function isAuthRefusal(error: unknown): boolean {
  if (error instanceof UnauthorizedError) return true;
  return error instanceof StreamableHTTPError && (error.code === 401 || error.code === 403);
}

function statusOf(error: unknown): number | undefined {
  if (error instanceof StreamableHTTPError) return error.code;
  return error instanceof UnauthorizedError ? 401 : undefined;
}

function findInChain(error: unknown, test: (item: unknown) => boolean): unknown {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current !== undefined && current !== null; depth += 1) {
    if (test(current)) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
