import { Command, CommanderError } from 'commander';
import { ApprovalRequiredError } from '../errors/approval-required-error';
import { ProtolinkError } from '../errors/protolink-error';
import { serverStderrOf } from '../mcp/client/attach-server-stderr';
import type { CliIo } from './cli-io';
import { CliUsageError } from './cli-usage-error';
import { PROCESS_IO } from './cli-io';
import { addCallCommand } from './commands/call-command';
import { addMcpCommand } from './commands/mcp-command';
import { addSchemasCommand } from './commands/schemas-command';
import { addServeCommand } from './commands/serve-command';
import { addToolsCommand } from './commands/tools-command';
import { terminalSafeIo } from './terminal-safe-io';

/** Exit codes of the `protolink` CLI. */
export const CLI_EXIT_CODES = Object.freeze({ ok: 0, failure: 1, usage: 2 });

/** Builds the `protolink` program with every command. */
export function buildCliProgram(io: CliIo = PROCESS_IO): Command {
  io = terminalSafeIo(io);
  const program = new Command('protolink')
    .description('Protolink: typed, validated, policy-checked tools for LLM agents')
    .option('--verbose', "print stack traces of errors and an MCP server's stderr")
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.out(text), writeErr: (text) => io.err(text) });
  addToolsCommand(program, io);
  addCallCommand(program, io);
  addMcpCommand(program, io);
  addSchemasCommand(program, io);
  addServeCommand(program, io);
  return program;
}

/**
 * Runs the CLI on `argv` (without the node and script entries) and returns the exit code (2 for usage
 * errors: commander's own and `CliUsageError`, such as contradicting flags): errors become one
 * line on stderr that says what to do, with the stack (and what an MCP server wrote to stderr) only under
 * `--verbose`. Everything printed is stripped of terminal escape sequences (see `stripTerminalEscapes`):
 * tool descriptions, results and error messages may come from an MCP server.
 */
export async function runCli(argv: readonly string[], io: CliIo = PROCESS_IO): Promise<number> {
  io = terminalSafeIo(io);
  const program = buildCliProgram(io);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return CLI_EXIT_CODES.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? CLI_EXIT_CODES.ok : CLI_EXIT_CODES.usage;
    }
    if (error instanceof CliUsageError) {
      // Like commander's own usage errors: nothing ran, the command line must change.
      io.err(`protolink: error: ${error.message}`);
      return CLI_EXIT_CODES.usage;
    }
    const verbose = argv.includes('--verbose');
    const message = error instanceof Error ? error.message : String(error);
    const label = error instanceof ProtolinkError ? error.name : 'Error';
    const hint =
      error instanceof ApprovalRequiredError ? ' From the command line, pass --yes to approve.' : '';
    io.err(`protolink: ${label}: ${message}${hint}`);
    if (verbose && error instanceof Error && error.stack) io.err(error.stack);
    // An MCP server's stderr can hold credentials: it is printed only when asked for.
    const serverStderr = verbose ? serverStderrOf(error) : undefined;
    if (serverStderr) io.err(`The MCP server wrote to stderr:\n${serverStderr}`);
    return CLI_EXIT_CODES.failure;
  }
}
