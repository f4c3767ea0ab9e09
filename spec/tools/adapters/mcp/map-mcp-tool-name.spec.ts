import { ToolDefinitionError } from '../../../../lib/errors/tool-definition-error';
import { buildMcpNameMap, toLocalToolName } from '../../../../lib/tools/adapters/mcp/map-mcp-tool-name';
import { TOOL_NAME_PATTERN } from '../../../../lib/tools/tool-name';

describe('toLocalToolName', () => {
  it('keeps names every provider accepts, with the prefix', () => {
    expect(toLocalToolName('create_issue')).toBe('create_issue');
    expect(toLocalToolName('create_issue', 'gh_')).toBe('gh_create_issue');
  });

  it('maps dots, spaces and names over 64 characters to stable valid names with a hash', () => {
    const dotted = toLocalToolName('files.read');
    expect(dotted).toMatch(/^files_read_[0-9a-f]{8}$/);
    expect(toLocalToolName('files.read')).toBe(dotted);
    expect(toLocalToolName('files read')).not.toBe(dotted);
    const long = toLocalToolName('x'.repeat(200));
    expect(long).toHaveLength(64);
    for (const name of ['a b', '../etc', 'ünïcode', '', '<IMPORTANT>', 'x'.repeat(65)])
      expect(toLocalToolName(name)).toMatch(TOOL_NAME_PATTERN);
  });
});

describe('buildMcpNameMap', () => {
  it('maps both ways', () => {
    const map = buildMcpNameMap(['a.b', 'c'], 'p_', 'srv');
    const local = map.toLocal.get('a.b') as string;
    expect(map.toRemote.get(local)).toBe('a.b');
    expect(map.toLocal.get('c')).toBe('p_c');
  });

  it('reports two remote names that map to one local name instead of overwriting', () => {
    const mapped = toLocalToolName('a.b');
    expect(() => buildMcpNameMap(['a.b', mapped], '', 'srv')).toThrow(
      new ToolDefinitionError(
        `MCP server 'srv' has the tools "a.b" and "${mapped}", which both map to the local name '${mapped}'. Rename one on the server.`,
      ),
    );
  });
});
