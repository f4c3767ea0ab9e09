import { MCPSignInRequiredError } from '../../errors/mcp-sign-in-required-error';
import { ToolRuntimeError } from '../../errors/tool-runtime-error';
import type { McpCallFailure, McpSession, McpToolPage } from './mcp-session';
import { describeError } from './mcp-session-helpers';
import type { ResolvedMcpConfig } from './resolve-mcp-config';
import { RetryOnce } from './retry-once';
import { isSessionExpired } from './to-mcp-call-error';

/**
 * Every tool a server lists, as sent (unchecked), following `nextCursor` up to `maxListPages`. Listing has no
 * effects, so a list cut short by a dead or forgotten session throws {@link RetryOnce} to be asked again.
 *
 * @throws ToolRuntimeError naming the server when it cannot list, or lists more than `maxListPages` pages.
 */
export async function listMcpToolPages(session: McpSession, config: ResolvedMcpConfig): Promise<unknown[]> {
  const all: unknown[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < config.maxListPages; page += 1) {
    const result = await listPage(session, cursor, config);
    all.push(...result.tools);
    cursor = result.nextCursor;
    if (cursor === undefined) return all;
  }
  throw new ToolRuntimeError(
    `MCP server '${config.serverName}' listed more than ${config.maxListPages} pages of tools; raise maxListPages if that is expected.`,
    { provider: config.serverName },
  );
}

async function listPage(
  session: McpSession,
  cursor: string | undefined,
  config: ResolvedMcpConfig,
): Promise<McpToolPage> {
  try {
    return await session.hold(() => session.listToolsPage(cursor));
  } catch (error) {
    if (error instanceof MCPSignInRequiredError) throw error;
    const notSent = error instanceof Error && error.message === 'Not connected';
    const failure: McpCallFailure = { error, fatal: undefined, sessionClosed: !session.alive, notSent };
    const listError = new ToolRuntimeError(
      `Could not list the tools of MCP server '${config.serverName}': ${describeError(error)}`,
      { cause: error, provider: config.serverName, retryable: true },
    );
    if (isSessionExpired(failure, config.transport) || notSent || failure.sessionClosed) {
      session.markDead();
      throw new RetryOnce(listError);
    }
    throw listError;
  }
}
