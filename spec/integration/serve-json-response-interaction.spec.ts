// With enableJsonResponse a call is answered with one JSON body: no stream can carry a request to the client,
// so a tool that asks (elicit, sample, approval) fails at once with a clear error instead of waiting.
import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Agent } from '../../lib/agents/agent';
import { Context, Tool, Toolset } from '../../lib/index';
import { CapabilityPolicy } from '../../lib/policy/capability-policy';
import type { RunContext } from '../../lib/runtime/run-context';
import type { AgentServerHandle } from '../../lib/agents/agent-server-options';
import { startAgentServer } from '../../lib/server/start-agent-server';

@Toolset()
class AskingTools {
  ran = 0;

  @Tool({ name: 'ask', description: 'Asks the user' })
  async ask(@Context() context: RunContext): Promise<string> {
    const answer = await context.elicit('Name?', {
      type: 'object',
      properties: { name: { type: 'string' } },
    });
    return answer.action;
  }

  @Tool({ name: 'think', description: "Asks the client's model" })
  async think(@Context() context: RunContext): Promise<string> {
    const result = await context.sample({
      messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
      maxTokens: 5,
    });
    return result.model;
  }

  @Tool({ name: 'guarded', description: 'Needs approval', capabilities: ['files.delete'] })
  guarded(): string {
    this.ran += 1;
    return 'ran';
  }
}

describe('serving with enableJsonResponse', () => {
  let server: AgentServerHandle;
  let client: Client;
  let tools: AskingTools;
  let elicitations = 0;

  beforeAll(async () => {
    tools = new AskingTools();
    const agent = new Agent({
      card: { name: 'json-agent', description: 'JSON answers only', url: 'http://127.0.0.1:0' },
      policy: new CapabilityPolicy({ 'files.delete': 'require_approval' }),
      toolsets: [tools],
    });
    server = await startAgentServer(agent, { enableJsonResponse: true, interactionTimeoutMs: 60_000 });
    client = new Client(
      { name: 'json-client', version: '1.0.0' },
      { capabilities: { elicitation: {}, sampling: {} } },
    );
    client.setRequestHandler(ElicitRequestSchema, () => {
      elicitations += 1;
      return { action: 'accept', content: { name: 'x' } };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.mcpUrl)));
  });

  afterAll(async () => {
    await client?.close();
    await server?.close();
  });

  it.each([
    [
      'ask',
      /Tool 'ask' asked the user a question \(context\.elicit\), but this server answers calls with single JSON responses \(enableJsonResponse\)/,
    ],
    [
      'think',
      /Tool 'think' asked for a model completion \(context\.sample\), but this server answers calls with single JSON responses/,
    ],
  ])('fails %s at once with an error that names enableJsonResponse', async (name, message) => {
    const result = (await client.callTool({ name, arguments: {} })) as {
      isError?: boolean;
      content: { type: string; text: string }[];
    };
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(message);
    expect(elicitations).toBe(0);
  });

  it('does not route approval through elicitation: the guarded call fails closed', async () => {
    const result = (await client.callTool({ name: 'guarded', arguments: {} })) as {
      isError?: boolean;
      content: { type: string; text: string }[];
    };
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(/approval/i);
    expect(tools.ran).toBe(0);
    expect(elicitations).toBe(0);
  });
});
