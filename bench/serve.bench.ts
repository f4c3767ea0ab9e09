import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import * as z from 'zod';
import { Agent } from '../lib/agents/agent';
import { RunContext } from '../lib/runtime/run-context';
import type { AgentServerOptions } from '../lib/server/agent-server-options';
import { startAgentServer } from '../lib/server/start-agent-server';
import { NativeTool } from '../lib/tools/native-tool';
import type { BenchRow } from './measure';
import { measureMicros } from './measure';

const CLIENTS = 50;
const CALLS_PER_CLIENT = 20;

interface LoadResult {
  callsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

/** Runs `clientCount` concurrent SDK clients against `url`, each making `callsPerClient` `add` calls; checks every answer. */
async function runLoad(
  url: string,
  clientCount = CLIENTS,
  callsPerClient = CALLS_PER_CLIENT,
): Promise<LoadResult> {
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

/** The bare SDK: an McpServer per session with the same tool, on the SDK's transport, no Protolink in between. */
async function startBareSdkServer(): Promise<{ url: string; close(): Promise<void> }> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const server = createServer((request, response) => {
    void (async () => {
      const id = request.headers['mcp-session-id'];
      const existing = typeof id === 'string' ? sessions.get(id) : undefined;
      if (existing) return existing.handleRequest(request, response);
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => void sessions.set(sessionId, transport),
      });
      const mcp = new McpServer({ name: 'bare', version: '1.0.0' });
      mcp.registerTool(
        'add',
        { description: 'Add two integers', inputSchema: { a: z.number().int(), b: z.number().int() } },
        ({ a, b }) => ({
          content: [{ type: 'text', text: String(a + b) }],
        }),
      );
      await mcp.connect(transport);
      await transport.handleRequest(request, response);
    })().catch(() => response.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    close: async () => {
      await Promise.all([...sessions.values()].map((transport) => transport.close()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Served calls: calls per second and p99 latency of `add` from 50 concurrent SDK clients on loopback,
 * for each session mode, against the same call in process through the agent (the floor) and the bare SDK
 * server (a peer), all measured in this run.
 */
export async function runServeBench(): Promise<BenchRow[]> {
  const agent = buildAgent();
  const floorMicros = await measureMicros(
    () => agent.callToolInContext('add', new RunContext(), { a: 1, b: 2 }),
    { iterations: 20_000 },
  );
  const floorRate = 1e6 / floorMicros;
  const rows: BenchRow[] = [
    {
      group: 'serve',
      name: 'in process: agent.callToolInContext(add) (floor)',
      value: floorMicros,
      unit: 'µs/call',
    },
  ];
  const bare = await startBareSdkServer();
  let bareRate = Number.NaN;
  try {
    const result = await runLoad(bare.url);
    bareRate = result.callsPerSecond;
    rows.push(
      {
        group: 'serve',
        name: `bare SDK McpServer, stateful SSE, ${CLIENTS} clients (peer)`,
        value: result.callsPerSecond,
        unit: 'calls/s',
      },
      { group: 'serve', name: 'bare SDK McpServer: p99 latency', value: result.p99Ms, unit: 'ms' },
    );
  } finally {
    await bare.close();
  }
  const single = await startAgentServer(agent);
  try {
    const result = await runLoad(single.mcpUrl, 1, 300);
    rows.push({
      group: 'serve',
      name: 'served, stateful, SSE responses, 1 client, sequential: p50 latency',
      value: result.p50Ms,
      unit: 'ms',
      ratio: (result.p50Ms * 1000) / floorMicros,
      note: `p99 ${result.p99Ms.toFixed(2)} ms; ratio: served latency ÷ in-process call`,
    });
  } finally {
    await single.close();
  }
  const modes: [string, AgentServerOptions][] = [
    ['stateful, SSE responses', {}],
    ['stateful, JSON responses', { enableJsonResponse: true }],
    ['stateless, JSON responses', { sessionMode: 'stateless', enableJsonResponse: true }],
    ['stateful, SSE, bearer token', { token: 'bench-token' }],
  ];
  for (const [label, options] of modes) {
    const handle = await startAgentServer(agent, { ...options, maxSessions: CLIENTS * 2 });
    try {
      const result = options.token
        ? await runLoadWithToken(handle.mcpUrl, options.token)
        : await runLoad(handle.mcpUrl);
      rows.push(
        {
          group: 'serve',
          name: `served, ${label}, ${CLIENTS} clients`,
          value: result.callsPerSecond,
          unit: 'calls/s',
          ratio: floorRate / result.callsPerSecond,
          note: `ratio: in-process rate ÷ served rate; the bare SDK peer ran at ${(bareRate / result.callsPerSecond).toFixed(2)}× this rate`,
        },
        {
          group: 'serve',
          name: `served, ${label}: p99 latency`,
          value: result.p99Ms,
          unit: 'ms',
          note: `p50 ${result.p50Ms.toFixed(2)} ms`,
        },
      );
    } finally {
      await handle.close();
    }
  }
  return rows;
}

async function runLoadWithToken(url: string, token: string): Promise<LoadResult> {
  const originalFetch = globalThis.fetch;
  // The SDK client passes requestInit headers; wrapping fetch keeps runLoad identical across modes.
  globalThis.fetch = (input, init) =>
    originalFetch(input, {
      ...init,
      headers: {
        ...Object.fromEntries(new Headers(init?.headers).entries()),
        authorization: `Bearer ${token}`,
      },
    });
  try {
    return await runLoad(url);
  } finally {
    globalThis.fetch = originalFetch;
  }
}
