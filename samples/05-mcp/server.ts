// Sample 05: a small MCP server of our own (add, multiply, greet, stats with structured output, fail).
// stdio:            npx ts-node --transpile-only samples/05-mcp/server.ts
// streamable HTTP:  npx ts-node --transpile-only samples/05-mcp/server.ts --http 3005   (127.0.0.1 only)
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

/** Builds the sample MCP server with its five tools (one instance per connection). */
export function createSampleServer(): McpServer {
  const server = new McpServer({ name: 'protolink-sample', version: '1.0.0' });
  server.registerTool(
    'add',
    {
      description: 'Add two integers',
      inputSchema: { a: z.number().int(), b: z.number().int() },
      annotations: { readOnlyHint: true, idempotentHint: true },
    },
    async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
  );
  server.registerTool(
    'multiply',
    {
      description: 'Multiply two numbers',
      inputSchema: { a: z.number(), b: z.number() },
      annotations: { readOnlyHint: true, idempotentHint: true },
    },
    async ({ a, b }) => ({ content: [{ type: 'text', text: String(a * b) }] }),
  );
  server.registerTool(
    'greet',
    {
      description: 'Greet someone by name',
      inputSchema: { name: z.string().min(1).max(100) },
      annotations: { readOnlyHint: true },
    },
    async ({ name }) => ({ content: [{ type: 'text', text: `Hello, ${name}!` }] }),
  );
  server.registerTool(
    'stats',
    {
      description: 'Count, sum and mean of a list of numbers (structured output)',
      inputSchema: { numbers: z.array(z.number()).min(1).max(1000) },
      outputSchema: { count: z.number().int(), sum: z.number(), mean: z.number() },
      annotations: { readOnlyHint: true, idempotentHint: true },
    },
    async ({ numbers }) => {
      const sum = numbers.reduce((total, value) => total + value, 0);
      const structuredContent = { count: numbers.length, sum, mean: sum / numbers.length };
      return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent };
    },
  );
  server.registerTool(
    'fail',
    {
      description: 'Always fails (to show how tool errors arrive)',
      inputSchema: { reason: z.string().optional() },
    },
    async ({ reason }) => ({
      isError: true,
      content: [{ type: 'text', text: `The sample tool failed: ${reason ?? 'no reason given'}` }],
    }),
  );
  return server;
}

async function main(): Promise<void> {
  const httpFlag = process.argv.indexOf('--http');
  if (httpFlag === -1) {
    const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
    await createSampleServer().connect(new StdioServerTransport());
    return;
  }
  const port = Number(process.argv[httpFlag + 1]);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write('Usage: server.ts --http <port>\n');
    process.exit(2);
  }
  const { serveStreamableHttp } = await import('./serve-streamable-http');
  const server = await serveStreamableHttp(createSampleServer, { port });
  const address = server.address();
  process.stderr.write(
    `protolink-sample listening on http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}/mcp\n`,
  );
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`protolink-sample failed: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  });
}
