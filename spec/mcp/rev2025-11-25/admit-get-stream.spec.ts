import 'reflect-metadata';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { Agent } from '../../../lib/agents/agent';
import type { AgentServerHandle, AgentServerOptions } from '../../../lib/agents/agent-server-options';
import { SessionStoreUnavailableError } from '../../../lib/errors/session-store-unavailable-error';
import { admitGetStream } from '../../../lib/mcp/rev2025-11-25/admit-get-stream';
import { InMemoryEventStore } from '../../../lib/state/memory/in-memory-event-store';
import type { McpSession } from '../../../lib/mcp/rev2025-11-25/mcp-session-store';
import type { ResumableEventStore } from '../../../lib/state/resumable-event-store';
import { startAgentServer } from '../../../lib/server/start-agent-server';
import { NativeTool } from '../../../lib/tools/native-tool';
import { MCP_HEADERS, openRawSession } from '../../fixtures/serve/http-helpers';

/** The id and data of each server-sent event of a body (keep-alive comments left out). */
function parseSse(text: string): { id?: string; data: string }[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '' && !block.startsWith(':'))
    .map((block) => {
      const event: { id?: string; data: string } = { data: '' };
      for (const line of block.split('\n')) {
        if (line.startsWith('id: ')) event.id = line.slice(4);
        else if (line.startsWith('data: ')) event.data += line.slice(6);
      }
      return event;
    });
}

function messagesOf(text: string): any[] {
  return parseSse(text)
    .filter((event) => event.data.trim() !== '')
    .map((event) => JSON.parse(event.data));
}

/** Reads a stream that the server keeps open until the response to `id` arrives, then lets go of it. */
async function readUntilResponse(response: Response, id: number): Promise<any[]> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (value) text += decoder.decode(value, { stream: true });
      const received = messagesOf(text.slice(0, text.lastIndexOf('\n\n') + 2));
      if (done || received.some((message) => message.id === id)) return received;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** An agent whose `steps` tool closes its stream, waits to be released, reports progress, then answers. */
function steppingAgent() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const agent = new Agent({ card: { name: 'stepper', description: 'Steps', url: 'http://127.0.0.1:0' } });
  agent.addTool(
    new NativeTool({
      name: 'quick',
      description: 'Answers at once',
      inputSchema: {},
      func: async (_args, context) => {
        void context;
        return 'quick result';
      },
    }),
  );
  agent.addTool(
    new NativeTool({
      name: 'steps',
      description: 'Closes its stream, then reports progress and answers when released',
      inputSchema: {},
      func: async (_args, context) => {
        context.closeSSEStream();
        await released;
        await context.reportProgress(1, 2, 'halfway');
        return 'steps done';
      },
    }),
  );
  return { agent, release };
}

/** A tools/call that carries a progress token, so it goes through the SDK's storing path. */
function callWithMeta(name: string, id: number): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name, arguments: {}, _meta: { progressToken: `token-${id}` } },
  });
}

/** A store of your own (say, backed by Redis) that cannot tell whether a stream is complete. */
function storeWithoutCompletion(): ResumableEventStore {
  const inner = new InMemoryEventStore();
  return {
    storeEvent: (streamId, message) => inner.storeEvent(streamId, message),
    getStreamIdForEventId: (eventId) => inner.getStreamIdForEventId(eventId),
    replayEventsAfter: (lastEventId, options) =>
      inner.replayEventsAfter(
        lastEventId,
        options as { send: (id: string, m: JSONRPCMessage) => Promise<void> },
      ),
    close: () => inner.close(),
  };
}

describe('admitGetStream', () => {
  const servers: AgentServerHandle[] = [];
  const controllers: AbortController[] = [];
  afterEach(async () => {
    for (const controller of controllers.splice(0)) controller.abort();
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  async function serve(options: AgentServerOptions = {}) {
    const { agent, release } = steppingAgent();
    const server = await startAgentServer(agent, options);
    servers.push(server);
    const sessionId = await openRawSession(server.port);
    return { server, sessionId, release };
  }

  function post(server: AgentServerHandle, sessionId: string, body: string): Promise<Response> {
    return fetch(server.mcpUrl, {
      method: 'POST',
      headers: { ...MCP_HEADERS, 'mcp-session-id': sessionId },
      body,
    });
  }

  /** Runs a call to its end and returns the id of its stream's priming event. */
  async function finishedCall(server: AgentServerHandle, sessionId: string, id: number): Promise<string> {
    const text = await (await post(server, sessionId, callWithMeta('quick', id))).text();
    expect(messagesOf(text)).toEqual([expect.objectContaining({ id, result: expect.anything() })]);
    return parseSse(text)[0].id!;
  }

  function get(server: AgentServerHandle, sessionId: string, lastEventId?: string): Promise<Response> {
    const controller = new AbortController();
    controllers.push(controller);
    return fetch(server.mcpUrl, {
      method: 'GET',
      signal: controller.signal,
      headers: {
        accept: 'text/event-stream',
        'mcp-protocol-version': MCP_HEADERS['mcp-protocol-version'],
        'mcp-session-id': sessionId,
        ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }),
      },
    });
  }

  describe('a Last-Event-ID the session does not hold', () => {
    it('gets 400 saying it is unknown or expired, and opens no stream, however many are sent', async () => {
      const { server, sessionId } = await serve();
      const madeUp = ['made-up_1', '_GET_stream_99', 'no-sequence-here', `${'x'.repeat(300)}_1`];
      // More than the session's cap of GET streams (17 by default): none of them may take one.
      for (let n = 0; n < 24; n += 1) madeUp.push(`invented-stream-${n}_${n + 1}`);
      for (const lastEventId of madeUp) {
        const refused = await get(server, sessionId, lastEventId);
        expect(refused.status).toBe(400);
        expect(refused.headers.get('content-type')).toBe('application/json');
        expect(await refused.json()).toEqual({
          jsonrpc: '2.0',
          id: null,
          error: {
            code: -32000,
            message: `Invalid event ID: Last-Event-ID '${lastEventId.slice(0, 100)}' is unknown or expired in this session (never issued, or no longer kept); open a new stream without Last-Event-ID, or re-send the request.`,
          },
        });
      }
      // None of them holds a stream: the notification stream still opens, once.
      const notifications = await get(server, sessionId);
      expect(notifications.status).toBe(200);
      expect(notifications.headers.get('content-type')).toBe('text/event-stream');
      expect((await get(server, sessionId)).status).toBe(409);
    });

    it("gets 400 for another session's real id", async () => {
      const { server, sessionId } = await serve();
      const other = await openRawSession(server.port);
      const theirs = await finishedCall(server, other, 5);
      expect((await get(server, sessionId, theirs)).status).toBe(400);
      expect((await get(server, other, theirs)).status).toBe(200);
    });
  });

  describe('the cap on GET streams per session', () => {
    it('refuses GET streams beyond maxConcurrentCallsPerSession + 1 with 429; real resumes under it work', async () => {
      // A store that cannot say a stream is complete: the SDK holds each resume open, as it does for any store.
      const { server, sessionId } = await serve({
        maxConcurrentCallsPerSession: 1,
        eventStore: storeWithoutCompletion,
      });
      const primings = [];
      for (let id = 1; id <= 4; id += 1) primings.push(await finishedCall(server, sessionId, id));

      const first = await get(server, sessionId, primings[0]);
      expect(first.status).toBe(200);
      const second = await get(server, sessionId, primings[1]);
      expect(second.status).toBe(200);

      for (const refused of [
        await get(server, sessionId, primings[2]),
        await get(server, sessionId, primings[3]),
        await get(server, sessionId),
      ]) {
        expect(refused.status).toBe(429);
        expect(refused.headers.get('retry-after')).toBe('1');
        expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
          'Too Many Requests: this session already has 2 GET streams open (its notification stream and resumed streams); close one, or retry when a call ends.',
        );
      }

      // Once the client lets go of one stream, a real resume gets its place and replays the missed result.
      controllers[0].abort();
      let third = await get(server, sessionId, primings[2]);
      for (let attempt = 0; third.status === 429 && attempt < 200; attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        third = await get(server, sessionId, primings[2]);
      }
      expect(third.status).toBe(200);
      expect(await readUntilResponse(third, 3)).toEqual([
        expect.objectContaining({ id: 3, result: { content: [{ type: 'text', text: 'quick result' }] } }),
      ]);
    });

    it('holds no place for the resume of a complete stream: its replay is sent and the stream closed', async () => {
      const { server, sessionId } = await serve({ maxConcurrentCallsPerSession: 1 });
      const primings = [];
      for (let id = 1; id <= 4; id += 1) primings.push(await finishedCall(server, sessionId, id));
      for (let round = 0; round < 2; round += 1) {
        const resumed = await Promise.all(primings.map((priming) => get(server, sessionId, priming)));
        expect(resumed.map((response) => response.status)).toEqual([200, 200, 200, 200]);
        // text() resolves: each stream ended after its replay.
        const bodies = await Promise.all(resumed.map((response) => response.text()));
        expect(bodies.map(messagesOf)).toEqual(
          [1, 2, 3, 4].map((id) => [
            { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'quick result' }] } },
          ]),
        );
      }
    });
  });

  describe('resuming with a real Last-Event-ID', () => {
    it('replays the events missed while away, then ends the stream after the final response', async () => {
      const stores: InMemoryEventStore[] = [];
      const { server, sessionId, release } = await serve({
        eventStore: () => {
          const store = new InMemoryEventStore();
          stores.push(store);
          return store;
        },
      });
      const closed = parseSse(await (await post(server, sessionId, callWithMeta('steps', 7))).text());
      // The tool closed the stream: only the priming event came.
      expect(closed).toEqual([{ id: expect.stringMatching(/_\d+$/), data: '' }]);
      const [store] = stores;
      const streamId = (await store.getStreamIdForEventId(closed[0].id!))!;
      release();
      // The call ends while the client is away.
      for (let attempt = 0; attempt < 500 && !(await store.isStreamComplete(streamId)); attempt += 1)
        await new Promise((resolve) => setTimeout(resolve, 10));
      await expect(store.isStreamComplete(streamId)).resolves.toBe(true);
      const resumed = await get(server, sessionId, closed[0].id);
      expect(resumed.status).toBe(200);
      // text() resolves: the stream ends after the replay.
      const messages = messagesOf(await resumed.text());
      expect(messages).toEqual([
        {
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: 'token-7', progress: 1, total: 2, message: 'halfway' },
        },
        { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'steps done' }] } },
      ]);
      // The call is over: a resume now is a replay that ends by itself.
      const again = await get(server, sessionId, closed[0].id);
      expect(messagesOf(await again.text())).toEqual(messages);
    });

    it('keeps the resume of a running call open and carries its events as they come', async () => {
      const { server, sessionId, release } = await serve();
      const closed = parseSse(await (await post(server, sessionId, callWithMeta('steps', 8))).text());
      const resumed = await get(server, sessionId, closed[0].id);
      expect(resumed.status).toBe(200);
      release();
      expect(await readUntilResponse(resumed, 8)).toEqual([
        expect.objectContaining({ method: 'notifications/progress' }),
        expect.objectContaining({ id: 8, result: { content: [{ type: 'text', text: 'steps done' }] } }),
      ]);
    });
  });
});

describe('admitGetStream with sessions shared through a store', () => {
  const failingSession = () =>
    ({
      id: 'session-1',
      getStreams: 0,
      eventStore: {
        getStreamIdForEventId: () =>
          Promise.reject(new SessionStoreUnavailableError({ reason: 'the connection is closed' })),
      },
    }) as unknown as McpSession;
  const request = () =>
    ({ headers: { 'last-event-id': 'stream_1', accept: 'text/event-stream' } }) as unknown as IncomingMessage;

  it('answers a store that fails meanwhile through the shared sessions (503), not as a crash', async () => {
    const answered: unknown[] = [];
    const shared = { answerStoreError: (error: unknown) => void answered.push(error) };
    const admission = await admitGetStream(failingSession(), request(), {} as ServerResponse, 4, shared);
    expect(admission).toBe('answered');
    expect(answered).toHaveLength(1);
    expect(answered[0]).toBeInstanceOf(SessionStoreUnavailableError);
    expect((answered[0] as Error).message).toBe('session store unavailable: the connection is closed');
  });

  it('throws the failure when the sessions are not shared', async () => {
    await expect(admitGetStream(failingSession(), request(), {} as ServerResponse, 4)).rejects.toBeInstanceOf(
      SessionStoreUnavailableError,
    );
  });
});
