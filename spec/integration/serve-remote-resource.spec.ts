import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { Agent } from '../../lib/agents/agent';
import { ToolDefinitionError } from '../../lib/errors/tool-definition-error';
import { ToolRuntimeError } from '../../lib/errors/tool-runtime-error';
import { Resource } from '../../lib/resources/resource.decorator';
import type { AgentServerHandle } from '../../lib/agents/agent-server-options';
import { startAgentServer } from '../../lib/server/start-agent-server';
import { MCPToolAdapter } from '../../lib/mcp/client';
import { misansweringServerStdio } from '../fixtures/mcp/misanswering-server-options';

jest.setTimeout(60_000);

/** Resources of a served agent that are read from a remote MCP server (the misanswering fixture). */
class RemoteDocs {
  constructor(private readonly remote: MCPToolAdapter) {}

  /** Passes the remote contents on under this resource's own URI (their uri left out). */
  @Resource({ uri: 'docs://fine', mimeType: 'text/plain' })
  async fine(): Promise<object[]> {
    const reading = await this.remote.readResource('memo://fine');
    return reading.contents.map((item) => ('text' in item ? { text: item.text } : { blob: item.blob }));
  }

  /** Passes the remote reading on as it came: labelled memo://fine, not docs://passed-on. */
  @Resource({ uri: 'docs://passed-on' })
  passedOn(): Promise<object> {
    return this.remote.readResource('memo://fine');
  }

  /** Reads a remote resource whose server labels its contents file:///etc/shadow. */
  @Resource({ uri: 'docs://shadow' })
  shadow(): Promise<object> {
    return this.remote.readResource('memo://shadow');
  }
}

describe('A served agent passing on a remote resource', () => {
  let remote: MCPToolAdapter;
  let agent: Agent;
  let served: AgentServerHandle;
  let client: Client;

  beforeAll(async () => {
    remote = new MCPToolAdapter(misansweringServerStdio({ timeoutMs: 3_600_000 }));
    agent = new Agent({
      card: { name: 'docs', description: 'Docs', url: 'http://127.0.0.1:0' },
      transport: 'http',
      toolsets: [new RemoteDocs(remote)],
    });
    served = await startAgentServer(agent);
    client = new Client({ name: 'remote-resource-spec', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(served.mcpUrl)));
  });

  afterAll(async () => {
    await client?.close();
    await served?.close();
    await remote?.close();
  });

  const rpcError = async (uri: string): Promise<McpError> => {
    const error = await client.readResource({ uri }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(McpError);
    return error as McpError;
  };

  it('serves remote contents under the URI read', async () => {
    const expected = {
      contents: [{ uri: 'docs://fine', mimeType: 'text/plain', text: 'Contents of memo://fine' }],
    };
    await expect(agent.readResource('docs://fine')).resolves.toEqual(expected);
    await expect(client.readResource({ uri: 'docs://fine' })).resolves.toEqual(expected);
  });

  it('refuses contents labelled with another URI, in process and served', async () => {
    const message =
      'The resource \'docs://passed-on\' returned item #1 labelled "memo://fine", which is neither that URI nor a ' +
      'sub-resource under it; leave out the uri of items that hold this resource (they take the URI read).';
    const error = await agent.readResource('docs://passed-on').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolDefinitionError);
    expect((error as Error).message).toBe(message);
    const served = await rpcError('docs://passed-on');
    expect(served.code).toBe(-32603);
    expect(served.message).toBe(`MCP error -32603: ${message}`);
  });

  it('never serves what a remote server labelled as another resource', async () => {
    const message =
      'MCP server \'misanswering\', asked for the resource "memo://shadow", sent contents[0] labelled ' +
      '"file:///etc/shadow", which is neither that URI nor a sub-resource under it; the answer was refused.';
    const error = await agent.readResource('docs://shadow').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolRuntimeError);
    expect((error as Error).message).toBe(message);
    const served = await rpcError('docs://shadow');
    expect(served.message).toBe(`MCP error -32603: ${message}`);
    expect(JSON.stringify(served)).not.toContain('root:');
  });
});
