import 'reflect-metadata';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from '../../lib/agents/agent';
import { ToolInputError } from '../../lib/errors/tool-input-error';
import type { AgentServerHandle, AgentServerOptions } from '../../lib/agents/agent-server-options';
import { InMemoryEventStore } from '../../lib/state/memory/in-memory-event-store';
import { startAgentServer } from '../../lib/server/start-agent-server';
import { NativeTool } from '../../lib/tools/native-tool';
import { callBody, MCP_HEADERS, openRawSession } from '../fixtures/serve/http-helpers';

/** One server-sent event. */
interface SseEvent {
  id?: string;
  retry?: string;
  data: string;
}

function parseSse(text: string): SseEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '' && !block.startsWith(':'))
    .map((block) => {
      const event: SseEvent = { data: '' };
      for (const line of block.split('\n')) {
        const separator = line.indexOf(':');
        const field = line.slice(0, separator);
        const value = line.slice(separator + 1).replace(/^ /, '');
        if (field === 'id') event.id = value;
        else if (field === 'retry') event.retry = value;
        else if (field === 'data') event.data += value;
      }
      return event;
    });
}

function messages(events: SseEvent[]): any[] {
  return events.filter((event) => event.data.trim() !== '').map((event) => JSON.parse(event.data));
}

/**
 * Reads a resumed stream until the response to request `id` arrives, then lets go of it (a replayed stream
 * whose call already ended is not closed by the server; the client closes it).
 */
async function readUntilResponse(response: Response, id: number): Promise<any[]> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (value) text += decoder.decode(value, { stream: true });
      const received = messages(parseSse(text.slice(0, text.lastIndexOf('\n\n') + 2)));
      if (done || received.some((message) => message.id === id)) return received;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** A tool that closes its response stream and then waits until the test releases it. */
function pollingAgent() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const agent = new Agent({ card: { name: 'poller', description: 'Polls', url: 'http://127.0.0.1:0' } });
  agent.addTool(
    new NativeTool({
      name: 'long_job',
      description: 'Closes its stream, then finishes when released',
      inputSchema: {},
      func: async (_args, context) => {
        const closed = context.closeSSEStream();
        if (closed) await released;
        return `long job done (stream closed: ${closed})`;
      },
    }),
  );
  return { agent, release };
}

async function post(server: AgentServerHandle, sessionId: string): Promise<Response> {
  return fetch(server.mcpUrl, {
    method: 'POST',
    headers: { ...MCP_HEADERS, 'mcp-session-id': sessionId },
    body: callBody('long_job', {}, 7),
  });
}

function resume(server: AgentServerHandle, sessionId: string, lastEventId: string): Promise<Response> {
  return fetch(server.mcpUrl, {
    method: 'GET',
    headers: {
      accept: 'text/event-stream',
      'mcp-protocol-version': MCP_HEADERS['mcp-protocol-version'],
      'mcp-session-id': sessionId,
      'last-event-id': lastEventId,
    },
  });
}

describe('Resumable streams of served calls (SEP-1699 polling)', () => {
  const servers: AgentServerHandle[] = [];
  async function serve(agent: Agent, options: AgentServerOptions = {}): Promise<AgentServerHandle> {
    const server = await startAgentServer(agent, options);
    servers.push(server);
    return server;
  }

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
  });

  it('a stream closed with context.closeSSEStream() is resumed with GET + Last-Event-ID and delivers the result', async () => {
    const { agent, release } = pollingAgent();
    const server = await serve(agent);
    const sessionId = await openRawSession(server.port);

    const first = await post(server, sessionId);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toMatch(/text\/event-stream/);
    // The server closed the stream: the body ends with only the priming event (an id and the retry delay).
    const primed = parseSse(await first.text());
    expect(primed).toEqual([{ id: expect.stringMatching(/_\d+$/), retry: '1000', data: '' }]);

    const resumed = await resume(server, sessionId, primed[0].id!);
    expect(resumed.status).toBe(200);
    release();
    // The resumed stream carries the result produced after the resume.
    const delivered = await readUntilResponse(resumed, 7);
    expect(delivered).toEqual([
      {
        jsonrpc: '2.0',
        id: 7,
        result: { content: [{ type: 'text', text: 'long job done (stream closed: true)' }] },
      },
    ]);
  });

  it('a result produced while the client is away is stored and replayed on resume (custom store factory)', async () => {
    const { agent, release } = pollingAgent();
    const stores: InMemoryEventStore[] = [];
    let resultStored!: () => void;
    const stored = new Promise<void>((resolve) => (resultStored = resolve));
    const server = await serve(agent, {
      sseRetryMs: 250,
      eventStore: () => {
        const store = new InMemoryEventStore({ maxEvents: 50 });
        const storeEvent = store.storeEvent.bind(store);
        store.storeEvent = async (streamId, message) => {
          const id = await storeEvent(streamId, message);
          if ((message as { id?: unknown }).id === 7) resultStored();
          return id;
        };
        stores.push(store);
        return store;
      },
    });
    const sessionId = await openRawSession(server.port);
    expect(stores).toHaveLength(1);

    const primed = parseSse(await (await post(server, sessionId)).text());
    expect(primed).toEqual([{ id: expect.any(String), retry: '250', data: '' }]);
    release();
    await stored;

    const resumed = await resume(server, sessionId, primed[0].id!);
    expect(await readUntilResponse(resumed, 7)).toEqual([
      expect.objectContaining({
        id: 7,
        result: { content: [{ type: 'text', text: 'long job done (stream closed: true)' }] },
      }),
    ]);
  });

  it('eventStore: false turns resumability off: no priming event, closeSSEStream() returns false', async () => {
    const { agent } = pollingAgent();
    const server = await serve(agent, { eventStore: false });
    const sessionId = await openRawSession(server.port);
    const events = parseSse(await (await post(server, sessionId)).text());
    expect(events.every((event) => event.id === undefined && event.retry === undefined)).toBe(true);
    expect(messages(events)).toEqual([
      expect.objectContaining({
        id: 7,
        result: { content: [{ type: 'text', text: 'long job done (stream closed: false)' }] },
      }),
    ]);
  });

  it('an unknown Last-Event-ID is refused with 400', async () => {
    const { agent } = pollingAgent();
    const server = await serve(agent);
    const sessionId = await openRawSession(server.port);
    const resumed = await resume(server, sessionId, 'no-sequence-here');
    expect(resumed.status).toBe(400);
    expect(await resumed.text()).toMatch(/Invalid event ID/);
  });

  it.each([
    [
      { eventStore: 'memory' as never },
      'eventStore must be false or a function returning a store for one session (storeEvent, replayEventsAfter).',
    ],
    [{ eventStore: true as never }, /eventStore must be false or a function/],
    [{ sseRetryMs: -1 }, 'sseRetryMs must be a whole number of milliseconds >= 0, got -1.'],
    [{ sseRetryMs: 2.5 }, 'sseRetryMs must be a whole number of milliseconds >= 0, got 2.5.'],
    [{ sseRetryMs: Number.NaN }, 'sseRetryMs must be a whole number of milliseconds >= 0, got NaN.'],
  ])('refuses %p with ToolInputError', async (options, message) => {
    const { agent } = pollingAgent();
    const starting = (async () => serve(agent, options as AgentServerOptions))();
    await expect(starting).rejects.toBeInstanceOf(ToolInputError);
    await expect(starting).rejects.toThrow(message);
  });

  it('a refused option leaves the port free (the listening server is closed again)', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const url = `http://127.0.0.1:${port}`;
    const { agent } = pollingAgent();
    await expect(serve(agent, { url, sseRetryMs: -1 })).rejects.toBeInstanceOf(ToolInputError);
    // The same port can be taken at once: nothing still listens on it.
    const server = await serve(agent, { url });
    expect(server.port).toBe(port);
  });
});
