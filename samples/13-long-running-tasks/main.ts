// Sample 13: long-running tools as MCP tasks. A report tool declared with `task: 'optional'` and a crawl with
// `task: 'required'` are served over streamable HTTP; the SDK's own tasks client starts a report, polls it
// and collects its result later; our MCPToolAdapter calls the crawl (a required task) like any tool and
// cancels it through its RunContext; in process, `agent.startTool` gives a handle without MCP.
// Run: npx ts-node --transpile-only samples/13-long-running-tasks/main.ts   (offline; exits by itself)
import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  Agent,
  CapabilityPolicy,
  Context,
  InMemoryTaskStore,
  Param,
  RunContext,
  Tool,
} from '../../lib/index';
import { startAgentServer } from '../../lib/server/index'; // `protolink/server` in an application
import { MCPToolAdapter } from '../../lib/mcp/client';

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    // The listener goes when the sleep ends: a crawl sleeps hundreds of times on one signal.
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Error('stopped'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

class ReportTools {
  @Tool({ name: 'build_report', description: 'Builds a sales report (takes a while)', task: 'optional' })
  async buildReport(@Param('region') region: string, @Context() context: RunContext): Promise<string> {
    for (let step = 1; step <= 3; step++) {
      await sleep(100, context.signal);
      await context.reportProgress(step, 3, `section ${step} of 3`);
    }
    return `Sales report for ${region}: 3 sections`;
  }

  @Tool({ name: 'crawl_site', description: 'Crawls a site until stopped', task: 'required' })
  async crawl(@Param('url') url: string, @Context() context: RunContext): Promise<string> {
    let pages = 0;
    while (!context.signal.aborted) {
      await sleep(50, context.signal).catch(() => undefined);
      pages++;
    }
    return `crawled ${pages} pages of ${url}`;
  }

  @Tool({
    name: 'wipe_reports',
    description: 'Deletes every report',
    capabilities: ['reports.delete'],
    task: 'optional',
  })
  wipe(): string {
    return 'wiped';
  }
}

async function main(): Promise<void> {
  const agent = new Agent({
    card: { name: 'reports-agent', description: 'Builds long reports', url: 'http://127.0.0.1:0' },
    policy: new CapabilityPolicy({ 'reports.delete': 'deny' }),
  });
  agent.addToolset(new ReportTools());
  const taskStore = new InMemoryTaskStore(); // with `redis`, the Redis task store is used instead
  const server = await startAgentServer(agent, { taskStore, maxTaskTtlMs: 60_000, taskPollIntervalMs: 100 });
  console.log(`Serving at ${server.mcpUrl}`);

  // 1. Any MCP client: the SDK's tasks client starts the report, polls it, and collects the result later.
  const client = new Client({ name: 'sample', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.mcpUrl)));
  for await (const message of client.experimental.tasks.callToolStream(
    { name: 'build_report', arguments: { region: 'EMEA' } },
    CallToolResultSchema,
    { task: { ttl: 30_000 } },
  )) {
    if (message.type === 'taskCreated') console.log(`task created: ${message.task.status}`);
    if (message.type === 'taskStatus') console.log(`task status: ${message.task.status}`);
    if (message.type === 'result') console.log(`result: ${JSON.stringify(message.result.content)}`);
  }
  const denied = await client
    .request(
      { method: 'tools/call', params: { name: 'wipe_reports', arguments: {}, task: {} } },
      CallToolResultSchema,
    )
    .then(
      () => 'ran',
      (error: Error) => `refused before any task existed: ${error.message}`,
    );
  console.log(`wipe_reports as a task -> ${denied}`);
  const listed = await client.experimental.tasks.listTasks();
  console.log(`tasks of this session: ${listed.tasks.map((task) => task.status).join(', ')}`);
  await client.close();

  // 2. Our adapter: a required-task tool is called like any other; cancelling the run sends tasks/cancel.
  const adapter = new MCPToolAdapter({ transport: 'http', url: server.mcpUrl });
  const crawl = await adapter.wrapTool('crawl_site');
  const run = new RunContext();
  setTimeout(() => run.cancel('enough crawling'), 300);
  await crawl.call({ url: 'https://example.com' }, { context: run }).catch((error: Error) => {
    console.log(`crawl_site via MCPToolAdapter -> ${error.name}`);
  });
  await adapter.close();

  // 3. In process, without MCP: a handle backed by the agent's task store.
  const task = await agent.startTool('build_report', { region: 'APAC' });
  console.log(`startTool: ${task.id.length}-char id, ${await task.status()}`);
  console.log(`startTool result: ${String(await task.result())} (${await task.status()})`);

  await server.close();
  console.log('Server stopped.');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
