import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Agent } from '../../../../lib/agents/agent';
import type { RunContext } from '../../../../lib/runtime/run-context';
import { createMcpServer } from '../../../../lib/mcp/rev2025-11-25/create-mcp-server';
import { startAgentServer } from '../../../../lib/server/start-agent-server';
import { InMemoryTaskStore } from '../../../../lib/tasks/in-memory-task-store';
import { NativeTool } from '../../../../lib/tools/native-tool';
import { connectStdioPipe } from '../../../fixtures/serve/stdio-pipe-client';
import { buildTaskAgent } from '../../../fixtures/tasks/task-agent';

const SHUT_DOWN = /^The server shut down while the task ran; its run was stopped\. Start it again\.$/;

/** The task agent with a tool that runs until its signal aborts, telling the spec why it stopped. */
function buildAgent(): { agent: Agent; stopped: Promise<string> } {
  const agent = buildTaskAgent();
  let tell!: (reason: string) => void;
  const stopped = new Promise<string>((resolve) => (tell = resolve));
  agent.addTool(
    new NativeTool({
      name: 'watch_forever',
      description: 'Runs until stopped',
      inputSchema: {},
      task: 'required',
      func: (_args, context: RunContext) =>
        new Promise((_resolve, reject) =>
          context.signal.addEventListener('abort', () => {
            tell(String((context.signal.reason as Error)?.message ?? context.signal.reason));
            reject(new Error('stopped'));
          }),
        ),
    }),
  );
  return { agent, stopped };
}

async function startTask(client: Client): Promise<string> {
  const created = await client.request(
    { method: 'tools/call', params: { name: 'watch_forever', arguments: {}, task: {} } },
    CreateTaskResultSchema,
  );
  return created.task.taskId;
}

/** The one task the store holds (the spec reads it as the store's owner, whoever that is). */
function onlyTask(store: InMemoryTaskStore) {
  const internal = store as unknown as {
    tasks: Map<string, { record: { status: string; statusMessage?: string } }>;
  };
  const [entry] = [...internal.tasks.values()];
  return entry?.record;
}

describe('served tasks when their server closes', () => {
  it('startAgentServer close() stops the running tasks and records them failed at once', async () => {
    const { agent, stopped } = buildAgent();
    const taskStore = new InMemoryTaskStore();
    const server = await startAgentServer(agent, { taskStore, maxTaskTtlMs: 60_000 });
    const client = new Client({ name: 'spec', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.mcpUrl)));
    await startTask(client);
    await client.close();
    const startedAt = Date.now();
    await server.close();
    expect(Date.now() - startedAt).toBeLessThan(2_000);
    expect(await stopped).toMatch(/server shut down while the task ran/);
    expect(onlyTask(taskStore)).toMatchObject({
      status: 'failed',
      statusMessage: expect.stringMatching(SHUT_DOWN),
    });
  });

  it('serveStdio close() and the end of stdin stop the connection tasks', async () => {
    for (const ending of ['close', 'stdin end'] as const) {
      const { agent, stopped } = buildAgent();
      const taskStore = new InMemoryTaskStore();
      const { client, server } = await connectStdioPipe(agent, { taskStore });
      await startTask(client);
      if (ending === 'close') await server.close();
      else {
        await client.close();
        await server.closed;
      }
      expect(await stopped).toMatch(/server shut down while the task ran/);
      expect(onlyTask(taskStore)).toMatchObject({
        status: 'failed',
        statusMessage: expect.stringMatching(SHUT_DOWN),
      });
      await client.close();
    }
  });

  it('a createMcpServer server stops its tasks when its transport closes', async () => {
    const { agent, stopped } = buildAgent();
    const taskStore = new InMemoryTaskStore();
    const server = createMcpServer(agent, { taskStore, transport: 'stdio' });
    let applicationToldOfClose = false;
    server.onclose = () => {
      applicationToldOfClose = true;
    };
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'spec', version: '1.0.0' });
    await client.connect(clientSide);
    await startTask(client);
    await client.close();
    expect(await stopped).toMatch(/server shut down while the task ran/);
    expect(applicationToldOfClose).toBe(true);
    const until = Date.now() + 2_000;
    while (onlyTask(taskStore)?.status !== 'failed' && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(onlyTask(taskStore)).toMatchObject({
      status: 'failed',
      statusMessage: expect.stringMatching(SHUT_DOWN),
    });
  });
});
