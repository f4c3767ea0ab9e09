import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Agent } from '../../../../lib/agents/agent';
import type { AgentServerHandle } from '../../../../lib/agents/agent-server-options';
import { startAgentServer } from '../../../../lib/server/start-agent-server';
import { describeWithRedis, startRedisServer } from '../../../fixtures/redis/redis-server';
import type { RedisServerHandle } from '../../../fixtures/redis/redis-server';
import { NotesCatalog } from '../../../fixtures/catalog/notes-catalog';

function notesAgent(): Agent {
  return new Agent({
    card: { name: 'notes', description: 'Notes', url: 'http://127.0.0.1:0' },
    transport: 'http',
    toolsets: [new NotesCatalog()],
  });
}

async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for a condition');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describeWithRedis('relayResourceUpdates: two servers of one agent sharing a redis', () => {
  let redis: RedisServerHandle;
  const agents = [notesAgent(), notesAgent()];
  const handles: AgentServerHandle[] = [];

  beforeAll(async () => {
    redis = await startRedisServer();
    for (const agent of agents)
      handles.push(await startAgentServer(agent, { redis: redis.url, redisKeyPrefix: redis.keyPrefix }));
  });

  afterAll(async () => {
    await Promise.all(handles.map((handle) => handle.close()));
    await redis?.dispose();
  });

  it('delivers an update reported in the other process to the session subscribed in this one, once', async () => {
    const client = new Client({ name: 'relay-spec', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(handles[0].mcpUrl)));
    const seen: string[] = [];
    client.setNotificationHandler(
      ResourceUpdatedNotificationSchema,
      (note) => void seen.push(note.params.uri),
    );
    try {
      await client.subscribeResource({ uri: 'notes://readme' });
      // The standalone GET stream carries the notification: wait until it is open.
      await new Promise((resolve) => setTimeout(resolve, 300));
      agents[1].notifyResourceUpdated('notes://readme');
      agents[1].notifyResourceUpdated('notes://logo');
      await waitFor(() => seen.length >= 1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(seen).toEqual(['notes://readme']);
    } finally {
      await client.close();
    }
  });
});
