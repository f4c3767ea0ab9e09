import 'reflect-metadata';
import { RunContext } from '../../../lib/runtime/run-context';
import { scanTools } from '../../../lib/tools/registry/scan-tools';
import { buildMcpToolClass } from '../../../lib/mcp/client/build-mcp-tool-class';
import type { McpClassEntry } from '../../../lib/mcp/client/build-mcp-tool-class';

const schema = {
  type: 'object',
  properties: { path: { type: 'string', pattern: '^(a+)+$' } },
  required: ['path'],
};
const entry: McpClassEntry = {
  definition: {
    name: 'files.read',
    description: 'Read a file',
    inputSchema: schema,
    annotations: { readOnlyHint: true },
  },
  localName: 'files_read_1234abcd',
  capabilities: ['files.read'],
  metadata: { remoteName: 'files.read', annotations: { readOnlyHint: true } },
};

describe('buildMcpToolClass', () => {
  it('generates a class whose @Tool methods scanTools turns into NativeTools that call the remote name', async () => {
    const calls: Array<[string, Record<string, unknown>, RunContext | undefined]> = [];
    const Generated = buildMcpToolClass('MCPTools_files', [entry], async (remote, args, run) => {
      calls.push([remote, args, run]);
      return 'content';
    });
    expect(Generated.name).toBe('MCPTools_files');
    const [tool] = scanTools(new Generated());
    expect(tool.name).toBe('files_read_1234abcd');
    expect(tool.tags).toEqual(['mcp']);
    expect(tool.capabilities).toEqual(['files.read']);
    expect(tool.inputSchema).toEqual(schema);
    expect(tool.metadata).toMatchObject({
      remoteName: 'files.read',
      source: { className: 'MCPTools_files', methodName: 'files_read_1234abcd' },
    });
    const context = new RunContext({});
    expect(await tool.call({ path: 'aaa' }, { context })).toBe('content');
    expect(calls[0][0]).toBe('files.read');
    expect(calls[0][1]).toEqual({ path: 'aaa' });
    expect(calls[0][2]).toBe(context);
  });

  it('validates against the preserved schema before invoking', async () => {
    const invoke = jest.fn(async () => 'never');
    const [tool] = scanTools(new (buildMcpToolClass('MCPTools_x', [entry], invoke))());
    await expect(tool.call({})).rejects.toThrow("Invalid arguments for tool 'files_read_1234abcd'");
    expect(invoke).not.toHaveBeenCalled();
  });
});
