// Sample 11: a policy-guarded tool served to an MCP client, with no approvalHandler on the server: the
// approval question goes to the client's user through MCP elicitation (accept → the tool runs; decline or
// cancel → denied). Clients that declare elicitation (the MCP Inspector, VS Code, Claude Desktop…) show it as
// a form; other clients are denied, as without the feature.
//
// Run:  npx ts-node --transpile-only samples/11-approval-in-inspector/main.ts
//         (offline: serves, answers the question itself with an SDK client (accept, then decline), exits)
//       npx ts-node --transpile-only samples/11-approval-in-inspector/main.ts --inspector
//         (keeps serving on http://127.0.0.1:6280/mcp for the MCP Inspector until Ctrl+C)
import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Agent, CapabilityPolicy, Param, Tool, Toolset } from '../../lib/index';
import { startAgentServer } from '../../lib/server/index'; // `protolink/server` in an application

@Toolset({ tags: ['files'] })
class FileTools {
  readonly files = new Set(['notes.txt', 'draft.md', 'old-report.pdf']);

  @Tool({ name: 'list_files', description: 'Lists the files', tags: ['read-only'] })
  list(): string[] {
    return [...this.files].sort();
  }

  @Tool({ name: 'delete_file', description: 'Deletes one file for good', capabilities: ['files.delete'] })
  delete(@Param('name', { description: 'The file to delete' }) name: string): string {
    if (!this.files.delete(name)) return `${name} does not exist`;
    return `deleted ${name}`;
  }
}

async function main(): Promise<void> {
  const inspector = process.argv.includes('--inspector');
  const files = new FileTools();
  // No approvalHandler: a served call that needs approval asks the connected client's user.
  const agent = new Agent({
    card: { name: 'file-agent', description: 'Manages a few files', url: 'http://127.0.0.1:0' },
    policy: new CapabilityPolicy({ 'files.delete': 'require_approval' }),
  });
  agent.addToolset(files);

  const server = await startAgentServer(agent, {
    url: inspector ? 'http://127.0.0.1:6280' : 'http://127.0.0.1:0',
    // The Inspector's page may connect directly from the browser (its default address is localhost:6274).
    allowedOrigins: ['http://localhost:6274', 'http://127.0.0.1:6274'],
  });
  console.log(`Serving ${agent.tools.size} tools at ${server.mcpUrl}`);
  console.log('To answer the approval yourself in the MCP Inspector:');
  console.log(
    '  1. npx @modelcontextprotocol/inspector   (opens http://localhost:6274 with its session token)',
  );
  console.log(`  2. Transport Type: Streamable HTTP, URL: ${server.mcpUrl}, Connect`);
  console.log('  3. Tools → List Tools → delete_file → name: draft.md → Run Tool');
  console.log(
    '  4. The Elicitations tab shows "Allow tool \'delete_file\' to run?": Submit runs it, Decline refuses',
  );

  if (inspector) {
    console.log('Serving until Ctrl+C.');
    process.once('SIGINT', () => void server.close().then(() => console.log('Server stopped.')));
    return;
  }

  // Offline run: an SDK client that declares elicitation plays the user (accept once, then decline).
  const answers: ('accept' | 'decline')[] = ['accept', 'decline'];
  const client = new Client({ name: 'sample-user', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    const action = answers.shift() ?? 'cancel';
    console.log(`\nThe server asks:\n${indent(request.params.message)}\nThe user answers: ${action}`);
    return { action };
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.mcpUrl)));
  try {
    for (const name of ['draft.md', 'notes.txt']) {
      const result = await client.callTool({ name: 'delete_file', arguments: { name } });
      const text = (result.content as { type: string; text?: string }[]).map((part) => part.text).join('');
      console.log(`delete_file(${name}) → ${result.isError ? `refused: ${text}` : text}`);
    }
    console.log('Files left:', files.list().join(', '));
  } finally {
    await client.close();
    await server.close();
  }
  console.log('Server stopped.');
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  | ${line}`)
    .join('\n');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
