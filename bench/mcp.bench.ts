// MCP adapter latency against the bare SDK on the same server (server-everything over stdio), and the
// persistent session against the seed's session per call. One run; ratios compare rows of this run.
import 'reflect-metadata';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { MCPToolAdapter } from '../lib/mcp/client';
import type { MCPToolAdapterOptions } from '../lib/mcp/client';
import type { BenchRow } from './measure';
import { judge, measureMicros } from './measure';

const EVERYTHING = join(
  __dirname,
  '..',
  'node_modules',
  '@modelcontextprotocol',
  'server-everything',
  'dist',
  'index.js',
);
const ARGS = { a: 2, b: 3 };
/** Interleaved rounds per side; each side's best round is reported. */
const ROUNDS = 20;
/** Calls per round (and as many warm-up calls before each). */
const CALLS_PER_ROUND = 250;

/** Runs the MCP benchmark: bare `Client.callTool`, the adapter's persistent session, and `session: 'per-call'`. */
export async function runMcpBench(): Promise<BenchRow[]> {
  const server = { command: process.execPath, args: [EVERYTHING, 'stdio'], stderr: 'ignore' as const };
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StdioClientTransport(server));
  // Each row talks to its own server process, as the adapter does: a server that answers two rows' calls
  // in a row answers faster (measured: the SDK call with the adapter's options took as long as the adapter
  // on a server of its own, and far less on the server it shared with the bare calls).
  const optionsClient = new Client({ name: 'bench-options', version: '1.0.0' });
  await optionsClient.connect(new StdioClientTransport(server));
  const options: MCPToolAdapterOptions = {
    transport: 'stdio',
    command: server.command,
    args: server.args,
    serverName: 'everything',
  };
  const adapter = new MCPToolAdapter(options);
  const perCall = new MCPToolAdapter({ ...options, session: 'per-call' });
  try {
    const tool = await adapter.wrapTool('get-sum');
    // Interleaved rounds of 250 calls, best of each: stdio round trips are noisy on a shared machine, and
    // every side should see the same conditions; twenty short rounds give each side more chances at a quiet
    // moment than five long ones (measureMicros warms each side up with as many calls before each round, so
    // the adapter's code is compiled before it counts).
    let bare = Number.POSITIVE_INFINITY;
    let withOptions = Number.POSITIVE_INFINITY;
    let persistent = Number.POSITIVE_INFINITY;
    for (let round = 0; round < ROUNDS; round += 1) {
      bare = Math.min(
        bare,
        await measureMicros(() => client.callTool({ name: 'get-sum', arguments: ARGS }), {
          iterations: CALLS_PER_ROUND,
          rounds: 1,
        }),
      );
      // What the adapter asks of the SDK on every call: a signal to cancel with, progress (so that progress
      // resets the timeout) and both timeouts.
      withOptions = Math.min(
        withOptions,
        await measureMicros(
          () =>
            optionsClient.callTool({ name: 'get-sum', arguments: ARGS }, undefined, {
              signal: new AbortController().signal,
              timeout: 60_000,
              maxTotalTimeout: 600_000,
              resetTimeoutOnProgress: true,
              onprogress: () => undefined,
            }),
          { iterations: CALLS_PER_ROUND, rounds: 1 },
        ),
      );
      persistent = Math.min(
        persistent,
        await measureMicros(() => tool.call(ARGS), { iterations: CALLS_PER_ROUND, rounds: 1 }),
      );
    }
    const perCallTool = await perCall.wrapTool('get-sum');
    const opened = await measureMicros(() => perCallTool.call(ARGS), { iterations: 5, rounds: 1 });
    return [
      { group: 'mcp', name: 'bare SDK Client.callTool (stdio, get-sum)', value: bare, unit: 'µs/call' },
      {
        group: 'mcp',
        name: 'bare SDK Client.callTool with the options the adapter passes (signal, progress, timeouts)',
        value: withOptions,
        unit: 'µs/call',
        ratio: withOptions / bare,
        note: "vs bare SDK callTool: the SDK's own cost of cancellation and progress",
      },
      {
        group: 'mcp',
        name: 'MCPToolAdapter tool.call, persistent session',
        value: persistent,
        unit: 'µs/call',
        ratio: persistent / bare,
        note: `vs bare SDK callTool; target ≤ 1.2×: ${persistent / bare <= 1.2 ? 'met' : 'NOT met'} (${(persistent / bare).toFixed(2)}×); ${(persistent / withOptions).toFixed(2)}× the SDK call with the same options; each row on its own server process`,
      },
      {
        group: 'mcp',
        name: "MCPToolAdapter tool.call, session: 'per-call'",
        value: opened,
        unit: 'µs/call',
        ratio: opened / persistent,
        note: `per-call ÷ persistent (persistent that much faster); ${judge(opened / persistent, '≥', 100)}`,
      },
    ];
  } finally {
    await Promise.all([client.close(), optionsClient.close(), adapter.close(), perCall.close()]);
  }
}
