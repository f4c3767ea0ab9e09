import 'reflect-metadata';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { AgentServerHandle } from '../../lib/agents/agent-server-options';
import { startAgentServer } from '../../lib/server/start-agent-server';
import { createFakeAgent } from '../fixtures/serve/fake-agent';
import { connectHttpClient } from '../fixtures/serve/http-helpers';

// Load: 1,000 calls from 50 concurrent clients on loopback, every answer checked, none lost.
describe('startAgentServer (load)', () => {
  const CLIENTS = 50;
  const CALLS_PER_CLIENT = 20;

  async function runLoad(handle: AgentServerHandle): Promise<{ answered: number; wrong: string[] }> {
    const clients: Client[] = await Promise.all(
      Array.from({ length: CLIENTS }, () => connectHttpClient(handle.mcpUrl)),
    );
    const wrong: string[] = [];
    let answered = 0;
    try {
      await Promise.all(
        clients.map(async (client, clientIndex) => {
          for (let call = 0; call < CALLS_PER_CLIENT; call += 1) {
            const a = clientIndex * 1000 + call;
            const result = await client.callTool({ name: 'add', arguments: { a, b: clientIndex } });
            answered += 1;
            const expected = [{ type: 'text', text: String(a + clientIndex) }];
            if (JSON.stringify(result.content) !== JSON.stringify(expected))
              wrong.push(`${clientIndex}/${call}: ${JSON.stringify(result)}`);
          }
        }),
      );
    } finally {
      await Promise.all(clients.map((client) => client.close()));
    }
    return { answered, wrong };
  }

  it('answers 1,000 calls from 50 concurrent stateful clients, all correctly', async () => {
    const agent = createFakeAgent();
    const handle = await startAgentServer(agent);
    try {
      const { answered, wrong } = await runLoad(handle);
      expect(wrong).toEqual([]);
      expect(answered).toBe(CLIENTS * CALLS_PER_CLIENT);
      expect(agent.log.executed).toHaveLength(CLIENTS * CALLS_PER_CLIENT);
      expect(new Set(agent.log.contexts.map((context) => context.sessionId)).size).toBe(CLIENTS);
    } finally {
      await handle.close();
    }
  }, 120_000);

  it('answers 1,000 calls from 50 concurrent clients in stateless mode, all correctly', async () => {
    const agent = createFakeAgent();
    const handle = await startAgentServer(agent, { sessionMode: 'stateless', enableJsonResponse: true });
    try {
      const { answered, wrong } = await runLoad(handle);
      expect(wrong).toEqual([]);
      expect(answered).toBe(CLIENTS * CALLS_PER_CLIENT);
      expect(agent.log.executed).toHaveLength(CLIENTS * CALLS_PER_CLIENT);
    } finally {
      await handle.close();
    }
  }, 120_000);
});
