import 'reflect-metadata';
import { ToolDefinitionError } from '../../../lib/errors/tool-definition-error';
import { MCPToolAdapter } from '../../../lib/mcp/client';
import { readMcpToolDefinition } from '../../../lib/mcp/client/read-mcp-tool-definition';
import { REPO_ROOT } from '../../fixtures/mcp/mcp-test-servers';

jest.setTimeout(30_000);

/** A stdio MCP server (the SDK's low-level Server) that lists the tools in its TOOLS variable as they are. */
const LISTING_SERVER = `
const { Server } = require('@modelcontextprotocol/sdk/server/index.js');
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');
const { CallToolRequestSchema, ListToolsRequestSchema } = require('@modelcontextprotocol/sdk/types.js');
const tools = JSON.parse(process.env.TOOLS);
const server = new Server({ name: 'listing', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, (request) => ({
  content: [{ type: 'text', text: JSON.stringify(request.params.arguments ?? {}) }],
}));
server.connect(new StdioServerTransport());
`;

const looping = { type: 'object', properties: { a: { type: 'string' } }, allOf: [{ $ref: '#' }] };
const tree = {
  type: 'object',
  properties: { n: { type: 'integer' }, next: { anyOf: [{ type: 'null' }, { $ref: '#' }] } },
};
const loopMessage = (kind: string): string =>
  `MCP tool "loop" on server 'listing' has an ${kind} schema that loops back on itself without descending into the value (# → #/allOf/0 → #), so checking any value would never end; the server must put the recursion under properties or items.`;

describe('assertRemoteSchema in the listing of an MCP server', () => {
  describe('readMcpToolDefinition', () => {
    it.each([
      ['input', { name: 'loop', inputSchema: looping }],
      ['output', { name: 'loop', inputSchema: { type: 'object' }, outputSchema: looping }],
    ])('sets aside a tool whose %s schema loops without consuming input', (kind, wire) => {
      const reading = readMcpToolDefinition(wire, 0, 'listing', { maxChars: 100_000, maxDepth: 32 });
      expect('problem' in reading && reading.key).toBe('loop');
      const problem = (reading as { problem: ToolDefinitionError }).problem;
      expect(problem).toBeInstanceOf(ToolDefinitionError);
      expect(problem.toolName).toBe('loop');
      expect(problem.message).toBe(loopMessage(kind));
    });
  });

  describe('through MCPToolAdapter', () => {
    const adapter = new MCPToolAdapter({
      transport: 'stdio',
      command: process.execPath,
      args: ['-e', LISTING_SERVER],
      cwd: REPO_ROOT,
      serverName: 'listing',
      env: {
        TOOLS: JSON.stringify([
          { name: 'loop', description: 'Loops', inputSchema: looping },
          { name: 'tree', description: 'A recursive tree', inputSchema: tree },
        ]),
      },
    });
    afterAll(() => adapter.close());

    it('lists the looping tool as a problem and keeps the recursive tree usable', async () => {
      const tools = await adapter.getTools();
      expect(tools.map((tool) => tool.name)).toEqual(['tree']);
      expect(adapter.problems).toHaveLength(1);
      expect(adapter.problems[0]).toBeInstanceOf(ToolDefinitionError);
      expect(adapter.problems[0].message).toBe(loopMessage('input'));
      await expect(tools[0].call({ n: '1', next: { n: 2, next: null } })).resolves.toBe(
        JSON.stringify({ n: 1, next: { n: 2, next: null } }),
      );
    });

    it('answers deeply nested arguments for the tree with a ToolValidationError, never a RangeError', async () => {
      const [treeTool] = await adapter.getTools();
      let deep: Record<string, unknown> = { n: 0, next: null };
      for (let level = 1; level < 50_000; level += 1) deep = { n: level, next: deep };
      const error = await treeTool.call(deep).catch((caught: unknown) => caught);
      expect((error as Error).name).toBe('ToolValidationError');
      expect((error as Error).message).toMatch(
        /^Invalid arguments for tool 'tree': next: must match one of the allowed schemas/,
      );
    });
  });
});
