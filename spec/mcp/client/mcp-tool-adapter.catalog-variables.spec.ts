import 'reflect-metadata';
import { Agent } from '../../../lib/agents/agent';
import { ToolInputError } from '../../../lib/errors/tool-input-error';
import type { AgentServerHandle } from '../../../lib/agents/agent-server-options';
import { startAgentServer } from '../../../lib/server/start-agent-server';
import { MCPToolAdapter } from '../../../lib/mcp/client';
import { createGuardedCatalog } from '../../fixtures/catalog/guarded-catalog';

// The adapter reads a remote template's URIs with the same matcher as local templates: a {x} value that
// decodes to a path is not one of the template's URIs, so it is refused before anything is sent.
describe('MCPToolAdapter readResource of a remote template', () => {
  const guarded = createGuardedCatalog();
  let served: AgentServerHandle;
  let adapter: MCPToolAdapter;

  beforeAll(async () => {
    served = await startAgentServer(
      new Agent({
        card: { name: 'files', description: 'Files', url: 'http://127.0.0.1:0' },
        transport: 'http',
        toolsets: [guarded.service],
      }),
    );
    adapter = new MCPToolAdapter({ transport: 'http', url: served.mcpUrl, serverName: 'files' });
  });

  afterAll(async () => {
    await adapter?.close();
    await served?.close();
  });

  it('refuses a URI whose {x} value decodes to a path or a NUL, and sends nothing', async () => {
    for (const uri of ['files://..%2F..%2Fetc/passwd', 'files://etc/passwd%00']) {
      const error = await adapter.readResource(uri).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolInputError);
      expect((error as Error).message).toContain(
        `The resource ${JSON.stringify(uri)} is not listed by MCP server 'files' and matches none of its resource templates`,
      );
    }
    expect(guarded.reads).toEqual([]);
    const read = await adapter.readResource('files://etc/passwd');
    expect(read.contents[0]).toMatchObject({ uri: 'files://etc/passwd', text: 'etc/passwd' });
    expect(guarded.reads).toEqual(['file|etc|passwd']);
  });
});
