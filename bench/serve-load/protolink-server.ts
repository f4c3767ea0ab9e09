import { Agent } from '../../lib/agents/agent';
import type { AgentServerHandle } from '../../lib/agents/agent-server-options';
import { startAgentServer } from '../../lib/server/start-agent-server';
import { NativeTool } from '../../lib/tools/native-tool';

/** The token the bearer-token variants require (loopback only, never a secret). */
export const BENCH_TOKEN = 'serve-load-bench-token';

/** The agent every Protolink variant serves: one two-integer `add` tool, as in the issue. */
export function buildAddAgent(): Agent {
  const agent = new Agent({
    card: { name: 'serve-load', description: 'Serving bench', url: 'http://127.0.0.1:0' },
  });
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
 * What `protolink serve [--stateless] [--token …] [--redis … --public-url …]` starts: `startAgentServer` with
 * the CLI's options and every other setting at its default, on 127.0.0.1 port 0.
 */
export function startProtolinkServer(
  mode: 'stateless' | 'stateful',
  token: boolean,
  scaleOut: { redis?: string; redisKeyPrefix?: string; publicUrl?: string } = {},
): Promise<AgentServerHandle> {
  return startAgentServer(buildAddAgent(), {
    url: 'http://127.0.0.1:0',
    sessionMode: mode,
    token: token ? BENCH_TOKEN : undefined,
    ...scaleOut,
    onError: (error) => process.stderr.write(`serve-load server: ${String(error)}\n`),
  });
}
