import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { ToolInputError } from '../../errors/tool-input-error';
import { lazyRequire } from '../../runtime/lazy-require';
import type { FileTokenStore } from '../../mcp/client/auth/file-token-store';
import { redactUrl } from '../../mcp/client/redact-url';
import type { CliIo } from '../cli-io';
import { terminalSafeIo } from '../terminal-safe-io';

// The MCP adapter, the token store, the loopback listener (node:http) and the browser launcher load in
// the actions, not for `protolink --help`.
const loadMcpToolAdapter = lazyRequire((): typeof import('../../mcp/client/mcp-tool-adapter') =>
  require('../../mcp/client/mcp-tool-adapter'),
);
const loadFileTokenStore = lazyRequire((): typeof import('../../mcp/client/auth/file-token-store') =>
  require('../../mcp/client/auth/file-token-store'),
);
const loadRedirectListener = lazyRequire((): typeof import('../loopback-redirect-listener') =>
  require('../loopback-redirect-listener'),
);
const loadBrowserLauncher = lazyRequire((): typeof import('../open-in-browser') =>
  require('../open-in-browser'),
);

/** Options of `protolink mcp login` and `protolink mcp logout`. */
export interface McpLoginOptions {
  /** The MCP server URL. */
  url?: string;
  /** `http` (default) or `sse`. */
  transport?: string;
  /** Scopes to ask for when the server does not name them. */
  scope?: string[];
  /** A client id registered with the authorization server (else registration or a metadata document). */
  clientId?: string;
  /** Seconds to wait for the browser's redirect (default 300). */
  timeout?: string;
  /** `false` (from `--no-browser`): only print the URL. */
  browser?: boolean;
}

/**
 * The directory of the CLI's token files: `PROTOLINK_MCP_AUTH_DIR`, else `~/.protolink/mcp-auth`.
 */
export function cliTokenDirectory(): string {
  return process.env.PROTOLINK_MCP_AUTH_DIR || join(homedir(), '.protolink', 'mcp-auth');
}

/** The token store shared by `protolink mcp login|logout|list|call`. */
export function cliTokenStore(): FileTokenStore {
  return new (loadFileTokenStore().FileTokenStore)({ directory: cliTokenDirectory() });
}

/**
 * Signs in to a protected MCP server: a loopback listener on 127.0.0.1 (random port) receives the redirect,
 * its `state` is checked, one code is accepted and the listener is closed; the tokens go to the CLI's token
 * store, where `protolink mcp list|call --url` find them.
 *
 * @throws ToolInputError for a missing or bad URL; MCPSignInRequiredError when sign-in fails.
 */
export async function runMcpLoginCommand(options: McpLoginOptions, io: CliIo): Promise<void> {
  io = terminalSafeIo(io);
  const url = checkUrl(options.url, 'login');
  const seconds = options.timeout === undefined ? 300 : Number(options.timeout);
  if (!(seconds > 0))
    throw new ToolInputError(`--timeout must be a positive number of seconds, got '${options.timeout}'.`);
  const store = cliTokenStore();
  const listener = await loadRedirectListener().startLoopbackRedirectListener();
  // A client registered for an earlier listener's port cannot receive this redirect: register again.
  const stored = await store.load(url);
  const registered = (stored?.clientInformation as { redirect_uris?: string[] } | undefined)?.redirect_uris;
  if (stored?.clientInformation && registered && !registered.includes(listener.redirectUrl)) {
    await store.save(url, { ...stored, clientInformation: undefined });
  }
  let signedIn = false;
  const adapter = new (loadMcpToolAdapter().MCPToolAdapter)({
    transport: options.transport ?? 'http',
    url,
    timeoutMs: seconds * 1000,
    auth: {
      tokenStore: store,
      redirectUrl: listener.redirectUrl,
      clientId: options.clientId,
      scopes: options.scope,
      onAuthorizationUrl: async (authorizationUrl) => {
        io.out(
          `Open this URL in a browser to sign in to ${redactUrl(new URL(url))}:\n\n  ${authorizationUrl.href}\n`,
        );
        if (options.browser !== false) {
          // The URL comes from the server's metadata: openInBrowser opens only https (or loopback http).
          const opened = loadBrowserLauncher().openInBrowser(authorizationUrl, {
            onFailure: (error) =>
              io.out(`Could not start a browser (${error.message}); copy the URL above into one.`),
          });
          if ('refused' in opened) {
            io.out(
              `${opened.refused[0].toUpperCase()}${opened.refused.slice(1)}; copy the URL above into a browser.`,
            );
          }
        }
        const code = await listener.waitForCode(authorizationUrl.searchParams.get('state'), seconds * 1000);
        signedIn = true;
        return code;
      },
    },
  });
  try {
    const tools = await adapter.listTools();
    io.out(
      `${signedIn ? 'Signed in to' : 'Already signed in to'} ${redactUrl(new URL(url))}: ${tools.length} tool${tools.length === 1 ? '' : 's'}. Tokens are kept in ${store.directory} (protolink mcp logout --url … deletes them).`,
    );
  } finally {
    await listener.close();
    await adapter.close();
  }
}

/** Deletes the stored sign-in of a server. */
export async function runMcpLogoutCommand(options: McpLoginOptions, io: CliIo): Promise<void> {
  io = terminalSafeIo(io);
  const url = checkUrl(options.url, 'logout');
  const deleted = await cliTokenStore().delete(url);
  io.out(
    deleted
      ? `Signed out of ${redactUrl(new URL(url))}.`
      : `Not signed in to ${redactUrl(new URL(url))}; nothing to delete.`,
  );
}

/** Adds `mcp login` and `mcp logout` to the `mcp` command. */
export function addMcpLoginCommands(mcp: Command, io: CliIo): void {
  mcp
    .command('login')
    .description(
      'sign in to a protected MCP server (OAuth in the browser); list and call with --url then use it',
    )
    .requiredOption('--url <url>', 'the MCP server URL')
    .option('--transport <kind>', 'http (default) or sse')
    .option('--scope <scope...>', 'scopes to ask for when the server does not name them')
    .option('--client-id <id>', 'a client id registered with the authorization server')
    .option('--timeout <seconds>', 'how long to wait for the browser', '300')
    .option('--no-browser', 'only print the URL to open')
    .action((options: McpLoginOptions) => runMcpLoginCommand(options, io));
  mcp
    .command('logout')
    .description('delete the stored sign-in of an MCP server')
    .requiredOption('--url <url>', 'the MCP server URL')
    .action((options: McpLoginOptions) => runMcpLogoutCommand(options, io));
}

function checkUrl(raw: string | undefined, command: string): string {
  let url: URL;
  try {
    url = new URL(raw ?? '');
  } catch (error) {
    throw new ToolInputError(`protolink mcp ${command} needs --url http(s)://… of the MCP server.`, {
      cause: error,
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ToolInputError(
      `protolink mcp ${command} needs an http(s) --url, got ${JSON.stringify(url.protocol)}.`,
    );
  }
  return url.href;
}
