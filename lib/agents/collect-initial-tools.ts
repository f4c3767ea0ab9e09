import { ToolDefinitionError } from '../errors/tool-definition-error';
import type { BaseTool } from '../tools/base-tool';
import { scanTools } from '../tools/registry/scan-tools';
import type { AgentOptions } from './agent-options';

/**
 * Returns the tools given to `new Agent()`, `tools` first, then each toolset's `@Tool` methods, in order.
 * Two of them with one name are refused, whatever their sources: neither was asked to replace the other.
 *
 * @throws ToolDefinitionError naming both places of a repeated name, or for a toolset declared wrongly.
 */
export function collectInitialTools(options: Pick<AgentOptions, 'tools' | 'toolsets'>): BaseTool[] {
  const entries: { tool: BaseTool; where: string }[] = (options.tools ?? []).map((tool, index) => ({
    tool,
    where: `tools[${index}]`,
  }));
  (options.toolsets ?? []).forEach((instance, index) => {
    const where = `toolsets[${index}] (${(instance as object | null)?.constructor?.name ?? typeof instance})`;
    for (const tool of scanTools(instance)) entries.push({ tool, where });
  });
  const firstSeen = new Map<string, string>();
  for (const { tool, where } of entries) {
    const name = (tool as { name?: unknown } | null)?.name;
    if (typeof name !== 'string') continue;
    const earlier = firstSeen.get(name);
    if (earlier !== undefined) {
      throw new ToolDefinitionError(
        `new Agent() was given two tools named '${name}' (${earlier} and ${where}); neither replaces the other. Rename one, or give the MCP adapter or @Toolset a namePrefix.`,
        { toolName: name },
      );
    }
    firstSeen.set(name, where);
  }
  return entries.map((entry) => entry.tool);
}
