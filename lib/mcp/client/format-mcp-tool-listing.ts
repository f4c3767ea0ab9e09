import type { MCPToolInfo } from './mcp-adapter-options';

/** The seed's human listing of MCP tools, as `printTools()` writes it. */
export function formatMcpToolListing(tools: readonly MCPToolInfo[]): string {
  const lines = ['', '🛠 Available MCP Tools:', ''];
  for (const tool of tools) {
    lines.push(
      `🔹 Name       : ${tool.name}`,
      `   Description: ${tool.description}`,
      `   Input Schema: ${JSON.stringify(tool.inputSchema)}`,
      `   Input Types : ${JSON.stringify(tool.inputTypes)}`,
      '',
    );
  }
  return `${lines.join('\n')}\n`;
}

/** A shallow map from top-level properties to JSON Schema type names (`any` when unknown), for display. */
export function toInputTypes(schema: unknown): Record<string, string> {
  const types: Record<string, string> = {};
  const properties = (schema as { properties?: unknown } | null)?.properties;
  if (typeof properties !== 'object' || properties === null) return types;
  for (const [name, property] of Object.entries(properties as Record<string, unknown>)) {
    const type = (property as { type?: unknown } | null)?.type;
    types[name] =
      typeof type === 'string' && ['integer', 'number', 'string', 'boolean', 'array', 'object'].includes(type)
        ? type
        : 'any';
  }
  return types;
}
