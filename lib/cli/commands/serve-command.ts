import type { Command } from 'commander';
import { ToolInputError } from '../../errors/tool-input-error';
import { lazyRequire } from '../../runtime/lazy-require';
import type { AgentServerHandle } from '../../agents/agent-server-options';
import { isLoopbackAddress } from '../../server/resolve-listen-address';
import type { CliIo } from '../cli-io';
import { MAX_SERVE_WORKERS, resolveServeScaleOut, SERVE_REDIS_ENV } from '../resolve-serve-scale-out';
import { resolveServeToken, SERVE_TOKEN_ENV } from '../resolve-serve-token';
import type { ServeToken } from '../resolve-serve-token';
import { describeSharing, toAgentServerOptions } from '../serve-http-config';
import type { ServeHttpConfig } from '../serve-http-config';
import { runServeWorkers } from '../serve-workers';
import { terminalSafeIo } from '../terminal-safe-io';

// The agent runtime and the MCP server load in the action, not for `protolink --help`.
const loadToolModules = lazyRequire((): typeof import('../load-tool-module') =>
  require('../load-tool-module'),
);
const loadServeStdio = lazyRequire((): typeof import('../../server/serve-stdio') =>
  require('../../server/serve-stdio'),
);
const loadAgentServer = lazyRequire((): typeof import('../../server/start-agent-server') =>
  require('../../server/start-agent-server'),
);

/** Options of `protolink serve`. */
export interface ServeCommandOptions {
  /** Serve over stdin/stdout instead of HTTP. */
  stdio?: boolean;
  /** Listen on this URL (default: the agent card's URL, else `http://127.0.0.1:0`). */
  http?: string;
  /** Require `Authorization: Bearer <token>` on `/mcp` (visible in the process list: prefer the others). */
  token?: string;
  /** Read the token from this file (one trailing newline ignored). */
  tokenFile?: string;
  /** Serve without MCP sessions (any load balancer). */
  stateless?: boolean;
  /** Allow a non-loopback interface. */
  allowNonLoopback?: boolean;
  /** Share stateful sessions through this Redis (`redis://…`); else `PROTOLINK_REDIS_URL`. */
  redis?: string;
  /** Prefix of the Redis keys (default `protolink:`). */
  redisKeyPrefix?: string;
  /** Serve from this many processes on one port (1 to 64; stateful needs Redis beyond 1). */
  workers?: string | number;
  /** The URL clients use behind a proxy or load balancer (its Host and Origin are accepted). */
  publicUrl?: string;
}

/** How a running `serve` is stopped: by default SIGINT/SIGTERM (HTTP) or the end of stdin (stdio). */
export interface ServeCommandControl {
  /** Stops the server when it aborts (tests and embedders). */
  signal?: AbortSignal;
  /** Where `PROTOLINK_TOKEN` and `PROTOLINK_REDIS_URL` are read from (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Serves the agent of `modulePath` (an exported agent, or one built from its toolsets and tools, see
 * `loadToolModule`) until stopped: over HTTP (printing the endpoint) or over stdio (stdout then carries only
 * MCP messages; notes go to stderr). The HTTP bearer token comes from `--token`, `--token-file` or the
 * `PROTOLINK_TOKEN` environment variable (see `resolveServeToken`). Warns on stderr when it listens on a
 * non-loopback address without a token. With `--redis <url>` (or `PROTOLINK_REDIS_URL`) stateful sessions
 * are shared through Redis; with `--workers <n>` it forks n processes serving on one port (see
 * `runServeWorkers`).
 *
 * @throws CliUsageError (a ToolInputError; the CLI exits with 2) for flags that contradict each other (see
 * `resolveServeScaleOut`); ToolInputError when the module cannot be loaded, both transports are chosen, the
 * URL is refused, both `--token` and `--token-file` are given, the token file cannot be read, or the token is
 * empty; SessionStoreUnavailableError when Redis cannot be reached; ToolRuntimeError when a worker cannot
 * start.
 */
export async function runServeCommand(
  modulePath: string,
  options: ServeCommandOptions,
  io: CliIo,
  control: ServeCommandControl = {},
): Promise<void> {
  io = terminalSafeIo(io);
  if (options.stdio && options.http !== undefined)
    throw new ToolInputError('Choose one transport: --stdio or --http <url>, not both.');
  const env = control.env ?? process.env;
  const scaleOut = resolveServeScaleOut({ ...options, env });
  if (options.stdio) {
    // stdout carries MCP messages only: console output of the served module goes to stderr meanwhile.
    const restoreConsole = redirectConsoleToStderr();
    try {
      const agent = loadToolModules().loadToolModule(modulePath);
      const handle = await loadServeStdio().serveStdio(agent, {
        onError: (error) => io.err(`protolink serve: ${describeError(error)}`),
      });
      io.err(`Serving ${agent.tools.size} tool(s) of '${agent.card.name}' over stdio.`);
      const onAbort = () => void handle.close();
      control.signal?.addEventListener('abort', onAbort, { once: true });
      await handle.closed;
      control.signal?.removeEventListener('abort', onAbort);
    } finally {
      restoreConsole();
    }
    return;
  }
  const token = resolveServeToken({ token: options.token, tokenFile: options.tokenFile, env });
  const config: ServeHttpConfig = {
    modulePath,
    http: options.http,
    stateless: options.stateless === true,
    allowNonLoopback: options.allowNonLoopback === true,
    token: token?.token,
    redis: scaleOut.redis?.url,
    redisKeyPrefix: scaleOut.redisKeyPrefix,
    publicUrl: scaleOut.publicUrl,
  };
  const printServing = (serving: { tools: number; agentName: string; mcpUrl: string; cardUrl: string }) => {
    // One write, so a reader of the pipe sees the whole announcement at once.
    io.out(
      [
        `Serving ${serving.tools} tool(s) of '${serving.agentName}' at ${serving.mcpUrl} (card: ${serving.cardUrl}).`,
        ...describeToken(token),
        ...describeSharing(config, scaleOut.workers),
      ].join('\n'),
    );
  };
  if (scaleOut.workers > 1) {
    if (options.allowNonLoopback && !token && nonLoopbackHost(options.http) !== undefined) {
      warnExposed(io, nonLoopbackHost(options.http)!);
    }
    await runServeWorkers({
      config,
      workers: scaleOut.workers,
      io,
      signal: control.signal,
      onListening: printServing,
    });
    return;
  }
  const agent = loadToolModules().loadToolModule(modulePath);
  const exposed =
    options.allowNonLoopback && !token ? nonLoopbackHost(options.http ?? agent.card.url) : undefined;
  if (exposed !== undefined) warnExposed(io, exposed);
  const handle = await loadAgentServer().startAgentServer(
    agent,
    toAgentServerOptions(config, (error) => io.err(`protolink serve: ${describeError(error)}`)),
  );
  printServing({
    tools: agent.tools.size,
    agentName: agent.card.name,
    mcpUrl: handle.mcpUrl,
    cardUrl: handle.cardUrl,
  });
  await waitForStop(handle, control.signal);
}

function describeToken(token: ServeToken | undefined): string[] {
  if (!token) return [];
  return [
    token.source === '--token'
      ? 'Clients must send: Authorization: Bearer <token>.'
      : `Clients must send: Authorization: Bearer <token> (the token from ${token.source}).`,
  ];
}

function warnExposed(io: CliIo, host: string): void {
  io.err(
    `protolink serve: warning: listening on '${host}' without --token: anyone who can reach this address can call the agent's tools. ` +
      `Pass a token with --token-file <path> or ${SERVE_TOKEN_ENV} (clients then send Authorization: Bearer <token>).`,
  );
}

/** Adds `serve` to the program. */
export function addServeCommand(program: Command, io: CliIo, control: ServeCommandControl = {}): void {
  program
    .command('serve')
    .description(
      "serve a module's agent (or toolsets) to any MCP client over streamable HTTP (/mcp) or stdio",
    )
    .argument('<module>', 'a .ts or .js file exporting an agent, toolsets or tools')
    .option('--stdio', 'serve over stdin/stdout')
    .option('--http <url>', 'listen on this URL (default: the card URL, else http://127.0.0.1:0)')
    .option(
      '--token <token>',
      `require Authorization: Bearer <token> on /mcp (visible in the process list: prefer --token-file or ${SERVE_TOKEN_ENV})`,
    )
    .option('--token-file <path>', 'read the token from this file (one trailing newline is ignored)')
    .option('--stateless', 'serve without MCP sessions (for several processes behind a load balancer)')
    .option('--allow-non-loopback', 'allow listening on a non-loopback interface (use with --token)')
    .option(
      '--redis <url>',
      `share stateful sessions between processes through this Redis (redis:// or rediss://; else ${SERVE_REDIS_ENV})`,
    )
    .option('--redis-key-prefix <prefix>', "prefix of the Redis keys (default 'protolink:'; one per agent)")
    .option(
      '--workers <n>',
      `serve from n processes on one port (1 to ${MAX_SERVE_WORKERS}; more than 1 needs --redis, or --stateless)`,
    )
    .option(
      '--public-url <url>',
      'the URL clients use behind a proxy or load balancer (its Host and Origin are accepted; the card shows it)',
    )
    .addHelpText(
      'after',
      `\nToken: --token <token>, --token-file <path>, or the ${SERVE_TOKEN_ENV} environment variable (used when\n` +
        'neither option is given). --token and --token-file together are refused; an empty token is refused.\n' +
        `Redis: --redis <url>, or the ${SERVE_REDIS_ENV} environment variable (the flag wins). See docs/scaling.md.\n`,
    )
    .action((modulePath: string, options: ServeCommandOptions) =>
      runServeCommand(modulePath, options, io, control),
    );
}

/** The host name of an http:// URL when it is not a loopback address (the default URL is loopback). */
function nonLoopbackHost(url: string | undefined): string | undefined {
  if (!url || !/^http:\/\//i.test(url)) return undefined;
  let hostname: string;
  try {
    hostname = new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  return bare === 'localhost' || isLoopbackAddress(bare) ? undefined : hostname;
}

function waitForStop(handle: AgentServerHandle, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolveStop) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      signal?.removeEventListener('abort', stop);
      void handle.close().then(resolveStop, resolveStop);
    };
    if (signal?.aborted) return stop();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    signal?.addEventListener('abort', stop, { once: true });
  });
}

function redirectConsoleToStderr(): () => void {
  const saved = { log: console.log, info: console.info, debug: console.debug };
  console.log = console.info = console.debug = console.error;
  return () => Object.assign(console, saved);
}

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
