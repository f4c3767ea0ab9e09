import type { Command } from 'commander';
import type { BaseTool } from '../../tools/base-tool';
import type { CliIo } from '../cli-io';
import { lazyRequire } from '../../runtime/lazy-require';
import { formatTable } from '../format-table';
import { terminalSafeIo } from '../terminal-safe-io';

// Loading a module (and the agent runtime) happens in the action, not for `protolink --help`.
const loadToolModules = lazyRequire((): typeof import('../load-tool-module') =>
  require('../load-tool-module'),
);

/** Options of `protolink tools`. */
export interface ToolsCommandOptions {
  /** Print the tools with their schemas as JSON. */
  json?: boolean;
}

/**
 * Lists the tools of a module: a table of names, capabilities, tags and descriptions, or JSON with schemas.
 *
 * @throws ToolInputError when the module is missing, fails to load or has no tools.
 */
export function runToolsCommand(modulePath: string, options: ToolsCommandOptions, io: CliIo): void {
  io = terminalSafeIo(io);
  const agent = loadToolModules().loadToolModule(modulePath);
  const tools = [...agent.tools.values()];
  if (options.json) {
    io.out(JSON.stringify(tools.map(describeTool), null, 2));
    return;
  }
  io.out(
    formatTable(
      ['tool', 'capabilities', 'tags', 'description'],
      tools.map((tool) => [
        tool.name,
        (tool.capabilities ?? []).join(', ') || '-',
        (tool.tags ?? []).join(', ') || '-',
        tool.description,
      ]),
    ),
  );
  io.out(`${tools.length} tool${tools.length === 1 ? '' : 's'}; --json prints their schemas.`);
}

function describeTool(tool: BaseTool): Record<string, unknown> {
  return {
    name: tool.name,
    description: tool.description,
    capabilities: tool.capabilities ?? [],
    tags: tool.tags ?? [],
    inputSchema: tool.inputSchema,
    outputSchema: tool.outputSchema,
  };
}

/** Adds `tools` to the program. */
export function addToolsCommand(program: Command, io: CliIo): void {
  program
    .command('tools')
    .description('list the tools of a module (an exported Agent, toolset classes or instances, or tools)')
    .argument('<module>', 'a .ts or .js file')
    .option('--json', 'print the tools with their input and output schemas as JSON')
    .action((modulePath: string, options: ToolsCommandOptions) => runToolsCommand(modulePath, options, io));
}
