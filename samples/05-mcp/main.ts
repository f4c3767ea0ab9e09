// Sample 05: the tools of an MCP server as Protolink tools, over one persistent stdio session.
// Run: npx ts-node --transpile-only samples/05-mcp/main.ts
import 'reflect-metadata';
import { join } from 'node:path';
import { MCPToolAdapter } from '../../lib/mcp/client';

async function main(): Promise<void> {
  const adapter = new MCPToolAdapter({
    transport: 'stdio',
    command: process.execPath,
    args: ['-r', 'ts-node/register/transpile-only', join(__dirname, 'server.ts')],
    cwd: join(__dirname, '..', '..'),
    serverName: 'sample',
    timeoutMs: 10_000,
    // The server is compiled by ts-node when it starts: give a busy machine time to open the session.
    connectTimeoutMs: 60_000,
    // Everything not annotated read-only needs the `mcp.write` capability (a policy can require approval).
    capabilities: (definition) => (definition.annotations.readOnlyHint ? ['mcp.read'] : ['mcp.write']),
  });
  try {
    await adapter.printTools();
    const tools = await adapter.getTools();
    for (const tool of tools)
      console.log(`${tool.name}: tags=${tool.tags.join(',')} capabilities=${tool.capabilities.join(',')}`);

    const add = await adapter.wrapTool('add');
    console.log('add(5, 7) =', await add.call({ a: 5, b: 7 }));
    console.log('multiply("3", 4) =', await adapter.getCallable('multiply')({ a: '3', b: 4 }));
    console.log('greet =', await adapter.getCallable('greet')({ name: 'Ada' }));
    console.log('stats =', await adapter.getCallable('stats')({ numbers: [2, 4, 9] }));
    try {
      await adapter.getCallable('fail')({ reason: 'demo' });
    } catch (error) {
      console.log(`fail -> ${(error as Error).name}: ${(error as Error).message}`);
    }
    try {
      await add.call({ a: 'five', b: 7 });
    } catch (error) {
      console.log(`add("five") -> ${(error as Error).name} (never sent to the server)`);
    }
  } finally {
    await adapter.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
