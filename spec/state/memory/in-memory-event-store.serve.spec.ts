// The default event store's memory bounds, through a served agent: real HTTP calls that carry a progress
// token (which sends them through the SDK's storing path) with large results.
import 'reflect-metadata';
import { Agent } from '../../../lib/agents/agent';
import type { AgentServerHandle } from '../../../lib/agents/agent-server-options';
import { EventStoreBudget } from '../../../lib/state/event-store-budget';
import { InMemoryEventStore } from '../../../lib/state/memory/in-memory-event-store';
import type { InMemoryEventStoreOptions } from '../../../lib/state/memory/in-memory-event-store';
import { startAgentServer } from '../../../lib/server/start-agent-server';
import { NativeTool } from '../../../lib/tools/native-tool';
import { MCP_HEADERS, openRawSession, waitFor } from '../../fixtures/serve/http-helpers';

/** Size of each result: large enough that a few dozen finished calls would weigh megabytes. */
const RESULT_CHARS = 64 * 1024;

function bigResultAgent(): Agent {
  const agent = new Agent({ card: { name: 'big', description: 'Big results', url: 'http://127.0.0.1:0' } });
  agent.addTool(
    new NativeTool({
      name: 'big',
      description: 'Returns a large text',
      inputSchema: {},
      func: async () => 'x'.repeat(RESULT_CHARS),
    }),
  );
  return agent;
}

describe('InMemoryEventStore, served', () => {
  const servers: AgentServerHandle[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  /** Serves the agent with a store per session built with `options`; returns the stores as they are made. */
  async function serve(options: InMemoryEventStoreOptions) {
    const stores: InMemoryEventStore[] = [];
    const server = await startAgentServer(bigResultAgent(), {
      eventStore: () => {
        const store = new InMemoryEventStore(options);
        stores.push(store);
        return store;
      },
    });
    servers.push(server);
    return { server, stores };
  }

  /** Runs one call to its end (its response delivered); returns the id of its stream's priming event. */
  async function call(server: AgentServerHandle, sessionId: string, id: number): Promise<string> {
    const response = await fetch(server.mcpUrl, {
      method: 'POST',
      headers: { ...MCP_HEADERS, 'mcp-session-id': sessionId },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'big', arguments: {}, _meta: { progressToken: id } },
      }),
    });
    const text = await response.text();
    expect(text).toContain(`"id":${id}`);
    expect(text.length).toBeGreaterThan(RESULT_CHARS);
    return /^id: (.+)$/m.exec(text)![1];
  }

  function resume(server: AgentServerHandle, sessionId: string, lastEventId: string): Promise<Response> {
    return fetch(server.mcpUrl, {
      headers: {
        accept: 'text/event-stream',
        'mcp-protocol-version': MCP_HEADERS['mcp-protocol-version'],
        'mcp-session-id': sessionId,
        'last-event-id': lastEventId,
      },
    });
  }

  it('keeps the events of one session within maxBytes over many finished calls', async () => {
    const maxBytes = 256 * 1024;
    const { server, stores } = await serve({ maxBytes, resumeWindowMs: 60_000 });
    const sessionId = await openRawSession(server.port);
    const primings: string[] = [];
    for (let id = 1; id <= 20; id += 1) {
      primings.push(await call(server, sessionId, id));
      expect(stores[0].storedBytes).toBeLessThanOrEqual(maxBytes);
    }
    // The 20 results weigh about 1.3 MB; the newest three fit.
    expect(stores[0].storedBytes).toBeGreaterThan(3 * RESULT_CHARS);
    const newest = await resume(server, sessionId, primings[19]);
    expect(newest.status).toBe(200);
    expect(await newest.text()).toContain('"id":20');
    // The oldest were dropped: resuming from them is refused, no stream opened.
    const oldest = await resume(server, sessionId, primings[0]);
    expect(oldest.status).toBe(400);
    expect(((await oldest.json()) as { error: { message: string } }).error.message).toMatch(
      /unknown or expired/,
    );
  });

  it('keeps the events of every session together within a shared budget', async () => {
    const budget = new EventStoreBudget({ maxBytes: 300 * 1024 });
    const { server, stores } = await serve({ budget, maxBytes: 256 * 1024, resumeWindowMs: 60_000 });
    const sessions = await Promise.all([1, 2, 3].map(() => openRawSession(server.port)));
    for (let id = 1; id <= 8; id += 1) {
      for (const sessionId of sessions) {
        await call(server, sessionId, id);
        expect(budget.usedBytes).toBeLessThanOrEqual(budget.maxBytes);
      }
    }
    expect(stores).toHaveLength(3);
    expect(stores.reduce((sum, store) => sum + store.storedBytes, 0)).toBe(budget.usedBytes);
    // Each session alone stays under its own 256 KiB: only the shared bound keeps the three under 300 KiB.
    expect(budget.usedBytes).toBeGreaterThan(3 * RESULT_CHARS);
  });

  it('gives back the bytes of a session when it is closed (DELETE)', async () => {
    const budget = new EventStoreBudget();
    const { server, stores } = await serve({ budget });
    const closing = await openRawSession(server.port);
    const staying = await openRawSession(server.port);
    await call(server, closing, 1);
    await call(server, staying, 1);
    expect(stores[0].storedBytes).toBeGreaterThan(RESULT_CHARS);
    const deleted = await fetch(server.mcpUrl, {
      method: 'DELETE',
      headers: { ...MCP_HEADERS, 'mcp-session-id': closing },
    });
    expect(deleted.status).toBe(200);
    await waitFor(() => stores[0].storedBytes === 0);
    expect(budget.usedBytes).toBe(stores[1].storedBytes);
  });

  it("releases a finished call's events once its resumption window has passed", async () => {
    const { server, stores } = await serve({ resumeWindowMs: 50 });
    const sessionId = await openRawSession(server.port);
    const priming = await call(server, sessionId, 1);
    // Waiting for the window to pass (not timing it): every finished stream is released, initialize's too.
    await waitFor(() => stores[0].size === 0);
    expect(stores[0].storedBytes).toBe(0);
    const expired = await resume(server, sessionId, priming);
    expect(expired.status).toBe(400);
    expect(((await expired.json()) as { error: { message: string } }).error.message).toMatch(
      /unknown or expired/,
    );
  });

  it('keeps them during the window: a client that was away can still fetch the result', async () => {
    const { server, stores } = await serve({ resumeWindowMs: 60_000 });
    const sessionId = await openRawSession(server.port);
    const priming = await call(server, sessionId, 1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(stores[0].storedBytes).toBeGreaterThan(RESULT_CHARS);
    const resumed = await resume(server, sessionId, priming);
    expect(resumed.status).toBe(200);
    expect(await resumed.text()).toContain('"id":1');
  });
});
