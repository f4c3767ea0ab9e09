import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Agent } from '../lib/agents/agent';
import { RunContext } from '../lib/runtime/run-context';
import { startAgentServer } from '../lib/server/start-agent-server';
import { NativeTool } from '../lib/tools/native-tool';
import type { BenchRow } from './measure';
import { measureMicros } from './measure';

interface LoadResult {
  callsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

/** Runs `clientCount` concurrent in-process SDK clients against `url`, each making `callsPerClient` `add` calls; checks every answer. */
async function runLoad(url: string, clientCount: number, callsPerClient: number): Promise<LoadResult> {
  const clients = await Promise.all(
    Array.from({ length: clientCount }, async () => {
      const client = new Client({ name: 'bench', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      return client;
    }),
  );
  const call = async (client: Client, a: number) => {
    const result = await client.callTool({ name: 'add', arguments: { a, b: 1 } });
    const text = (result.content as { text: string }[])[0]?.text;
    if (text !== String(a + 1)) throw new RangeError(`wrong answer ${JSON.stringify(result)} for ${a} + 1`);
  };
  try {
    await Promise.all(clients.map(async (client) => call(client, 0)));
    const latencies: number[] = [];
    const started = process.hrtime.bigint();
    await Promise.all(
      clients.map(async (client, index) => {
        for (let round = 0; round < callsPerClient; round += 1) {
          const before = process.hrtime.bigint();
          await call(client, index * 1000 + round);
          latencies.push(Number(process.hrtime.bigint() - before) / 1e6);
        }
      }),
    );
    const elapsedSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    latencies.sort((left, right) => left - right);
    const at = (quantile: number) =>
      latencies[Math.min(latencies.length - 1, Math.floor(quantile * latencies.length))];
    return { callsPerSecond: latencies.length / elapsedSeconds, p50Ms: at(0.5), p99Ms: at(0.99) };
  } finally {
    await Promise.all(clients.map((client) => client.close()));
  }
}

function buildAgent(): Agent {
  const agent = new Agent({ card: { name: 'bench-agent', description: 'Bench', url: 'http://127.0.0.1:0' } });
  agent.addTool(
    new NativeTool({
      name: 'add',
      description: 'Add two integers',
      inputSchema: { a: 'int', b: 'int' },
      func: ({ a, b }) => (a as number) + (b as number),
    }),
  );
  return agent;
}

/**
 * The in-process harness, kept only as a latency row: one SDK client in the bench's own process makes
 * sequential `add` calls to a stateful server (SSE responses) on loopback; its p50 is compared with the same
 * call made in process through the agent. Throughput under load is measured from another process by
 * `serve-load.bench.ts` (this harness's clients share the server's event loop, so they hide its cost).
 */
export async function runServeBench(): Promise<BenchRow[]> {
  const agent = buildAgent();
  const floorMicros = await measureMicros(
    () => agent.callToolInContext('add', new RunContext(), { a: 1, b: 2 }),
    { iterations: 20_000 },
  );
  const rows: BenchRow[] = [
    {
      group: 'serve',
      name: 'in process, no HTTP: agent.callToolInContext(add) (floor of the latency row)',
      value: floorMicros,
      unit: 'µs/call',
    },
  ];
  const single = await startAgentServer(agent);
  try {
    const result = await runLoad(single.mcpUrl, 1, 300);
    rows.push({
      group: 'serve',
      name: "in-process harness (SDK client in the server's process), stateful SSE, 1 client, sequential: p50 latency",
      value: result.p50Ms,
      unit: 'ms',
      ratio: (result.p50Ms * 1000) / floorMicros,
      note: `p99 ${result.p99Ms.toFixed(2)} ms; ratio: served latency ÷ in-process call; throughput: see serve-load`,
    });
  } finally {
    await single.close();
  }
  return rows;
}
