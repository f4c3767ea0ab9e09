// Server-initiated requests (elicitation/create, sampling/createMessage) from a real MCP server on 127.0.0.1
// (the SDK's McpServer over streamable HTTP) to MCPToolAdapter's client.
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { ToolRuntimeError } from '../../../../lib/errors/tool-runtime-error';
import { MCPToolAdapter } from '../../../../lib/mcp/client';
import type { MCPToolAdapterOptions } from '../../../../lib/mcp/client';

jest.setTimeout(20_000);

const FORM = {
  type: 'object' as const,
  properties: {
    name: { type: 'string' as const, default: 'John Doe' },
    age: { type: 'integer' as const, default: 30 },
    status: { type: 'string' as const, enum: ['active', 'inactive'], default: 'active' },
    verified: { type: 'boolean' as const, default: true },
  },
  required: [],
};

describe('registerServerRequestHandlers (through MCPToolAdapter)', () => {
  let http: Server;
  let url: string;
  const capabilities: (ClientCapabilities | undefined)[] = [];
  const adapters: MCPToolAdapter[] = [];

  const buildServer = (): McpServer => {
    const mcp = new McpServer({ name: 'asks-back', version: '1.0.0' });
    mcp.registerTool('ask', { description: 'Asks the user' }, async () => {
      capabilities.push(mcp.server.getClientCapabilities());
      const answer = await mcp.server.request(
        { method: 'elicitation/create', params: { message: 'Who are you?', requestedSchema: FORM } },
        ElicitResultSchema,
      );
      return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
    });
    mcp.registerTool('sample', { description: 'Asks the model' }, async () => {
      const result = await mcp.server.createMessage({
        messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }],
        maxTokens: 20,
      });
      return { content: [{ type: 'text', text: JSON.stringify(result) }] };
    });
    return mcp;
  };

  beforeAll(async () => {
    // Stateful: the client's answer to a server request arrives as another POST of the same session.
    const sessions = new Map<string, StreamableHTTPServerTransport>();
    http = createServer((request, response) => {
      const id = request.headers['mcp-session-id'];
      const known = typeof id === 'string' ? sessions.get(id) : undefined;
      if (known) {
        void known.handleRequest(request, response);
        return;
      }
      const mcp = buildServer();
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => void sessions.set(sessionId, transport),
      });
      void mcp.connect(transport).then(() => transport.handleRequest(request, response));
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  });

  afterAll(async () => {
    await Promise.all(adapters.map((adapter) => adapter.close()));
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  });

  const open = (options: Partial<MCPToolAdapterOptions>): MCPToolAdapter => {
    const adapter = new MCPToolAdapter({ transport: 'http', url, serverName: 'asker', ...options });
    adapters.push(adapter);
    return adapter;
  };

  it('declares elicitation only with a handler and fills omitted fields with the defaults (SEP-1034)', async () => {
    const handler = jest.fn(() => ({ action: 'accept' as const, content: { name: 'Ada' } }));
    const answer = await open({ elicitationHandler: handler }).getCallable('ask')();
    expect(JSON.parse(answer as string)).toEqual({
      action: 'accept',
      content: { name: 'Ada', age: 30, status: 'active', verified: true },
    });
    expect(handler).toHaveBeenCalledWith(
      { message: 'Who are you?', requestedSchema: FORM },
      expect.objectContaining({ serverName: 'asker', signal: expect.any(AbortSignal) }),
    );
    expect(capabilities.pop()).toEqual({ elicitation: { form: { applyDefaults: true } } });
  });

  it('passes decline and cancel through without content', async () => {
    const adapter = open({ elicitationHandler: () => ({ action: 'decline', content: { name: 'x' } }) });
    expect(JSON.parse((await adapter.getCallable('ask')()) as string)).toEqual({ action: 'decline' });
  });

  it('refuses an answer that does not fit the form, and the server sees why', async () => {
    const adapter = open({ elicitationHandler: () => ({ action: 'accept', content: { age: 'old' } }) });
    const error = await adapter
      .getCallable('ask')()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolRuntimeError);
    expect((error as Error).message).toMatch(
      /elicitationHandler of MCP server 'asker' gave an answer that does not fit the requested form: .*age/,
    );
  });

  it('refuses elicitation with an error naming the missing option when no handler was given', async () => {
    const error = await open({})
      .getCallable('ask')()
      .catch((caught: unknown) => caught);
    expect(capabilities.pop()).toEqual({});
    expect(error).toBeInstanceOf(ToolRuntimeError);
    expect((error as Error).message).toContain(
      "cannot answer elicitation/create from MCP server 'asker': give the MCPToolAdapter an elicitationHandler option",
    );
  });

  it('answers sampling with the samplingHandler, and declares sampling only then', async () => {
    const adapter = open({
      samplingHandler: (request, context) => ({
        role: 'assistant',
        content: { type: 'text', text: `hi from ${context.serverName} (${request.messages.length} message)` },
        model: 'test-model',
        stopReason: 'endTurn',
      }),
    });
    const result = JSON.parse((await adapter.getCallable('sample')()) as string) as Record<string, unknown>;
    expect(result).toMatchObject({
      model: 'test-model',
      content: { type: 'text', text: 'hi from asker (1 message)' },
    });
    const refused = await open({})
      .getCallable('sample')()
      .catch((caught: unknown) => caught);
    expect(refused).toBeInstanceOf(ToolRuntimeError);
    expect((refused as Error).message).toMatch(/sampling/i);
  });

  it('checks the handler options at first use', async () => {
    const adapter = open({ samplingHandler: 'yes' as never });
    await expect(adapter.listTools()).rejects.toThrow(
      "'samplingHandler' must be a function answering the server's requests.",
    );
  });
});
