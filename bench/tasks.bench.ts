// The `tasks` group: creating a task and reading its terminal result (a tool that returns at once) against a
// plain served tools/call of the same tool, in memory and with Redis; and 1,000 tasks of one session listed
// page by page (every task exactly once). One SDK client, sequential calls, in this process.
import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { Agent } from '../lib/agents/agent';
import type { AgentServerOptions } from '../lib/agents/agent-server-options';
import { startAgentServer } from '../lib/server/start-agent-server';
import { NativeTool } from '../lib/tools/native-tool';
import { findRedis, startRedisServer } from '../spec/fixtures/redis/redis-server';
import type { BenchRow } from './measure';
import { judge, measureMicros } from './measure';

function buildAgent(): Agent {
  const agent = new Agent({
    card: { name: 'tasks-bench', description: 'Tasks bench', url: 'http://127.0.0.1:0' },
  });
  agent.addTool(
    new NativeTool({
      name: 'echo',
      description: 'Returns its text at once',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      task: 'optional',
      func: ({ text }: Record<string, unknown>) => text,
    }),
  );
  return agent;
}

interface Setting {
  readonly label: string;
  readonly target: number;
  readonly options: AgentServerOptions;
}

async function measureSetting(setting: Setting): Promise<BenchRow[]> {
  const server = await startAgentServer(buildAgent(), { ...setting.options, taskPollIntervalMs: 50 });
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.mcpUrl)));
  try {
    const plain = async () => {
      const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
      if ((result.content as { text: string }[])[0]?.text !== 'hi')
        throw new RangeError('wrong plain answer');
    };
    const asTask = async () => {
      const created = await client.request(
        { method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' }, task: { ttl: 60_000 } } },
        CreateTaskResultSchema,
      );
      const result = await client.experimental.tasks.getTaskResult(created.task.taskId, CallToolResultSchema);
      if ((result.content as { text: string }[])[0]?.text !== 'hi') throw new RangeError('wrong task answer');
    };
    const options = { iterations: 300, rounds: 3 };
    const plainMicros = await measureMicros(plain, options);
    const taskMicros = await measureMicros(asTask, options);
    const ratio = taskMicros / plainMicros;
    const listed = await listThousand(client);
    return [
      {
        group: 'tasks',
        name: `${setting.label}: plain served tools/call (floor)`,
        value: plainMicros / 1000,
        unit: 'ms/call',
        ratio: 1,
      },
      {
        group: 'tasks',
        name: `${setting.label}: task create + tasks/result (terminal at once)`,
        value: taskMicros / 1000,
        unit: 'ms/call',
        ratio,
        note: `two requests vs one; ${judge(ratio, '≤', setting.target)}`,
      },
      {
        group: 'tasks',
        name: `${setting.label}: 1,000 more tasks in one session, then all of its tasks listed page by page`,
        value: listed.ms,
        unit: 'ms',
        note: `${listed.pages} pages, ${listed.unique} distinct of ${listed.seen} listed, ${listed.total} in the session: ${listed.unique === listed.total && listed.seen === listed.total ? 'every task exactly once: met' : 'NOT met'}`,
      },
    ];
  } finally {
    await client.close();
    await server.close();
  }
}

/** Creates tasks until the session has 1,000 more, then lists every page and counts. */
async function listThousand(client: Client) {
  const before = await countAll(client);
  for (let index = 0; index < 1000; index++) {
    await client.request(
      {
        method: 'tools/call',
        params: { name: 'echo', arguments: { text: String(index) }, task: { ttl: 600_000 } },
      },
      CreateTaskResultSchema,
    );
  }
  const started = process.hrtime.bigint();
  const after = await countAll(client);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  return { ...after, total: before.seen + 1000, ms };
}

async function countAll(client: Client) {
  const ids: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await client.experimental.tasks.listTasks(cursor);
    ids.push(...page.tasks.map((task) => task.taskId));
    cursor = page.nextCursor;
    pages++;
  } while (cursor !== undefined);
  return { seen: ids.length, unique: new Set(ids).size, pages };
}

export async function runTasksBench(): Promise<BenchRow[]> {
  const rows = await measureSetting({ label: 'in memory', target: 2, options: {} });
  if (findRedis().mode === 'none') {
    rows.push({
      group: 'tasks',
      name: 'with Redis: not measured (no redis-server on PATH, no REDIS_URL)',
      value: Number.NaN,
      unit: '',
    });
    return rows;
  }
  const redis = await startRedisServer();
  try {
    rows.push(
      ...(await measureSetting({
        label: 'with Redis',
        target: 4,
        options: { redis: redis.url, redisKeyPrefix: redis.keyPrefix },
      })),
    );
  } finally {
    await redis.dispose();
  }
  return rows;
}
