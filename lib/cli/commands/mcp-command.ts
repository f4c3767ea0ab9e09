import type { Command } from 'commander';
import { ToolInputError } from '../../errors/tool-input-error';
import { lazyRequire } from '../../runtime/lazy-require';
import type { MCPToolAdapter } from '../../mcp/client/mcp-tool-adapter';
import type { MCPToolAdapterOptions } from '../../mcp/client/mcp-adapter-options';
import type { CliIo } from '../cli-io';
import { formatTable } from '../format-table';
import { parseArgsOption } from '../parse-args-option';
import { terminalSafeIo } from '../terminal-safe-io';
import { addMcpLoginCommands, cliTokenStore } from './mcp-login-command';

// The MCP adapter (and the MCP SDK) loads in the action, not for `protolink --help`.
const loadMcpToolAdapter = lazyRequire((): typeof import('../../mcp/client/mcp-tool-adapter') =>
  require('../../mcp/client/mcp-tool-adapter'),
);

/** Options shared by `protolink mcp list` and `protolink mcp call`. */
export interface McpCommandOptions {
  /** A streamable HTTP (or SSE) server's URL, instead of a command. */
  url?: string;
  /** `http` (default for a URL) or `sse`. */
  transport?: string;
  /** `Name: value` headers for HTTP servers. */
  header?: string[];
  /** Seconds a call or the connection may take. */
  timeout?: string;
  /** Print JSON. */
  json?: boolean;
  /** The arguments of `mcp call`, as one JSON object. */
  args?: string;
}

/**
 * Builds the adapter of `protolink mcp`: a stdio server from the command after `--`, or an HTTP/SSE server
 * from `--url`.
 *
 * @throws ToolInputError when neither or both are given, or an option is malformed.
 */
export function buildCliMcpAdapter(command: readonly string[], options: McpCommandOptions): MCPToolAdapter {
  const seconds = options.timeout === undefined ? 30 : Number(options.timeout);
  if (!(seconds > 0))
    throw new ToolInputError(`--timeout must be a positive number of seconds, got '${options.timeout}'.`);
  const { MCPToolAdapter } = loadMcpToolAdapter();
  const common: MCPToolAdapterOptions = { timeoutMs: seconds * 1000, connectTimeoutMs: seconds * 1000 };
  if (options.url !== undefined && command.length > 0) {
    throw new ToolInputError('Give either --url <server> or a command after --, not both.');
  }
  if (options.url !== undefined) {
    const transport = options.transport ?? 'http';
    if (transport !== 'http' && transport !== 'sse')
      throw new ToolInputError(`--transport must be http or sse, got '${transport}'.`);
    return new MCPToolAdapter({
      ...common,
      transport,
      url: options.url,
      headers: parseHeaders(options.header ?? []),
      // What `protolink mcp login` stored; a server that needs sign-in otherwise says to run it.
      auth: { tokenStore: cliTokenStore() },
    });
  }
  if (command.length === 0) {
    throw new ToolInputError(
      'Name the MCP server: a command after -- (protolink mcp list -- npx my-server) or --url http://127.0.0.1:3000/mcp.',
    );
  }
  return new MCPToolAdapter({
    ...common,
    transport: 'stdio',
    command: command[0],
    args: command.slice(1),
    cwd: process.cwd(),
  });
}

function parseHeaders(headers: readonly string[]): Record<string, string> {
  const parsed: Record<string, string> = {};
  for (const header of headers) {
    const colon = header.indexOf(':');
    if (colon <= 0) {
      // The header may be a credential: show at most the word before its first space (its name).
      const name = /^([^\s:]+)\s/.exec(header)?.[1] ?? '<redacted>';
      throw new ToolInputError(
        `--header must look like 'Name: value'; the header starting with '${name}' does not (its value is not shown).`,
      );
    }
    parsed[header.slice(0, colon).trim()] = header.slice(colon + 1).trim();
  }
  return parsed;
}

/** Lists an MCP server's tools. */
export async function runMcpListCommand(
  command: readonly string[],
  options: McpCommandOptions,
  io: CliIo,
): Promise<void> {
  io = terminalSafeIo(io);
  const adapter = buildCliMcpAdapter(command, options);
  try {
    const tools = await adapter.listTools();
    if (options.json) {
      io.out(
        JSON.stringify(
          tools.map(({ callable: _callable, ...definition }) => definition),
          null,
          2,
        ),
      );
      return;
    }
    io.out(
      formatTable(
        ['tool', 'arguments', 'description'],
        tools.map((tool) => [tool.localName, describeArguments(tool.inputTypes), tool.description ?? '']),
      ),
    );
    io.out(`${tools.length} tool${tools.length === 1 ? '' : 's'}; --json prints their schemas.`);
  } finally {
    await adapter.close();
  }
}

/** Calls one tool of an MCP server (arguments validated against its schema first) and prints the result. */
export async function runMcpCallCommand(
  toolName: string,
  command: readonly string[],
  options: McpCommandOptions,
  io: CliIo,
): Promise<void> {
  io = terminalSafeIo(io);
  const args = parseArgsOption(options.args);
  const adapter = buildCliMcpAdapter(command, options);
  try {
    const tool = await adapter.wrapTool(toolName);
    const result = await tool.call(args);
    io.out(typeof result === 'string' ? result : JSON.stringify(result, null, 2));
  } finally {
    await adapter.close();
  }
}

function describeArguments(types: Readonly<Record<string, string>>): string {
  return (
    Object.entries(types)
      .map(([name, type]) => `${name}: ${type}`)
      .join(', ') || '-'
  );
}

function addServerOptions(command: Command): Command {
  return command
    .option('--url <url>', 'an HTTP MCP server (streamable HTTP, or SSE with --transport sse)')
    .option('--transport <kind>', 'http (default) or sse, with --url')
    .option('--header <header...>', "'Name: value' headers for --url servers")
    .option('--timeout <seconds>', 'how long connecting and each call may take', '30');
}

/** Adds `mcp list` and `mcp call` to the program. */
export function addMcpCommand(program: Command, io: CliIo): void {
  const mcp = program.command('mcp').description('talk to an MCP server: a command after --, or --url');
  addServerOptions(
    mcp
      .command('list')
      .description(
        'list the tools of an MCP server, e.g. protolink mcp list -- npx @modelcontextprotocol/server-everything',
      )
      .argument('[command...]', 'the server command and its arguments, after --')
      .option('--json', 'print the tool definitions as JSON'),
  ).action((command: string[], options: McpCommandOptions) => runMcpListCommand(command, options, io));
  addServerOptions(
    mcp
      .command('call')
      .description(
        'call one tool of an MCP server, e.g. protolink mcp call add --args \'{"a": 1, "b": 2}\' -- node server.js',
      )
      .argument('<tool>', 'the tool name')
      .argument('[command...]', 'the server command and its arguments, after --')
      .option('--args <json>', 'the arguments as one JSON object', '{}'),
  ).action((toolName: string, command: string[], options: McpCommandOptions) =>
    runMcpCallCommand(toolName, command, options, io),
  );
  addMcpLoginCommands(mcp, io);
}
