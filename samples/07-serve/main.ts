// Sample 07: serve an agent's tools to any MCP client over streamable HTTP on 127.0.0.1, then call them
// with our own MCPToolAdapter: a plain call, a policy denial, an approval-gated call and a rejected one.
// Run: npx ts-node --transpile-only samples/07-serve/main.ts   (offline; exits by itself)
import 'reflect-metadata';
import { Agent, CapabilityPolicy, Param, Tool, Toolset } from '../../lib/index';
import type { ApprovalRequest } from '../../lib/index';
import { startAgentServer } from '../../lib/server/index'; // `protolink/server` in an application
import { MCPToolAdapter } from '../../lib/mcp/client';

@Toolset({ tags: ['notes'] })
class NotesTools {
  private readonly notes = new Map<string, string>();

  @Tool({ name: 'add', description: 'Add two integers', tags: ['read-only'] })
  add(@Param('a', { type: 'integer' }) a: number, @Param('b', { type: 'integer' }) b: number): number {
    return a + b;
  }

  @Tool({ name: 'save_note', description: 'Save a note under a title', capabilities: ['notes.write'] })
  save(@Param('title') title: string, @Param('text') text: string): { title: string; saved: boolean } {
    this.notes.set(title, text);
    return { title, saved: true };
  }

  @Tool({ name: 'delete_all_notes', description: 'Delete every note', capabilities: ['notes.delete'] })
  deleteAll(): string {
    this.notes.clear();
    return 'deleted';
  }
}

async function main(): Promise<void> {
  const agent = new Agent({
    card: { name: 'notes-agent', description: 'Keeps notes', url: 'http://127.0.0.1:0' },
    policy: new CapabilityPolicy({ 'notes.write': 'require_approval', 'notes.delete': 'deny' }),
    // Approve short titles only: the decision is made on the server, for every remote caller.
    approvalHandler: (request: ApprovalRequest) =>
      String((request.action.payload.arguments as { title?: string }).title).length <= 10,
  });
  agent.addToolset(new NotesTools());

  const server = await startAgentServer(agent, { token: 'sample-token' });
  console.log(`Serving ${agent.tools.size} tools at ${server.mcpUrl}`);
  const card = (await (await fetch(server.cardUrl)).json()) as { name: string; skills: { id: string }[] };
  console.log(`Card: ${card.name}, skills: ${card.skills.map((skill) => skill.id).join(', ')}`);

  const client = new MCPToolAdapter({
    transport: 'http',
    url: server.mcpUrl,
    headers: { authorization: 'Bearer sample-token' },
  });
  try {
    console.log('Remote tools:', (await client.getTools()).map((tool) => tool.name).join(', '));
    console.log('add(2, 40) =', await client.getCallable('add')({ a: 2, b: 40 }));
    console.log(
      'save_note (approved):',
      await client.getCallable('save_note')({ title: 'todo', text: 'buy milk' }),
    );
    for (const [name, args] of [
      ['save_note', { title: 'a very long title', text: 'x' }],
      ['delete_all_notes', {}],
    ] as const) {
      await client
        .getCallable(name)(args)
        .then(
          (result) => console.log(`${name}: unexpectedly ran`, result),
          (error: Error) => console.log(`${name} refused: ${error.message}`),
        );
    }
  } finally {
    await client.close();
    await server.close();
  }
  console.log('Server stopped.');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
