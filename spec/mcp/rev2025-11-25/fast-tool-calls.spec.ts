import type { IncomingMessage } from 'node:http';
import { Agent } from '../../../lib/agents/agent';
import { FastToolCalls } from '../../../lib/mcp/rev2025-11-25/fast-tool-calls';
import { newSessionToolCalls } from '../../../lib/mcp/rev2025-11-25/session-tool-calls';
import type { SessionToolCalls } from '../../../lib/mcp/rev2025-11-25/session-tool-calls';
import { RunAction } from '../../../lib/runtime/run-action';
import { NativeTool } from '../../../lib/tools/native-tool';
import type { BaseTool } from '../../../lib/tools/base-tool';

const HEADERS = {
  accept: 'application/json, text/event-stream',
  'content-type': 'application/json',
  'mcp-protocol-version': '2025-06-18',
};

function requestWith(headers: Record<string, string | undefined> = {}): IncomingMessage {
  return { headers: { ...HEADERS, ...headers } } as unknown as IncomingMessage;
}

function buildFast(): { fast: FastToolCalls; calls: SessionToolCalls } {
  const agent = new Agent({ card: { name: 'fast', description: 'Fast', url: 'http://127.0.0.1:0' } });
  agent.addTool(new NativeTool({ name: 'plain', description: 'Plain', inputSchema: {}, func: () => 1 }));
  agent.addTool(
    new NativeTool({
      name: 'reads_context',
      description: 'Reads its context',
      inputSchema: {},
      func: (_args, context) => context.sessionId,
    }),
  );
  agent.addTool(
    new NativeTool({
      name: 'declared_context',
      description: 'Declares that it reads its context',
      inputSchema: {},
      usesContext: true,
      func: () => 1,
    }),
  );
  agent.addTool(
    new NativeTool({
      name: 'built_action',
      description: 'Has an action builder',
      inputSchema: {},
      actionBuilder: (args) => new RunAction({ kind: 'tool.call', name: 'built_action', payload: args }),
      func: () => 1,
    }),
  );
  const custom: BaseTool = {
    name: 'custom',
    description: 'Not a NativeTool',
    inputSchema: { type: 'object' },
    outputSchema: {},
    tags: [],
    examples: [],
    metadata: {},
    call: async () => 1,
  } as unknown as BaseTool;
  agent.addTool(custom);
  agent.addTool(
    new NativeTool({
      name: 'task_tool',
      description: 'May run as a task',
      inputSchema: {},
      task: 'optional',
      func: () => 1,
    }),
  );
  const calls = newSessionToolCalls(agent, {}, 1000);
  return { fast: new FastToolCalls(calls), calls };
}

const call = (name: string, extra: Record<string, unknown> = {}, id: unknown = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: {}, ...extra },
});

describe('FastToolCalls.match', () => {
  const { fast } = buildFast();

  it('takes one tools/call of a NativeTool that never reads its context, and of an unknown tool', () => {
    expect(fast.match(requestWith(), call('plain'))).toEqual({
      kind: 'call',
      id: 1,
      toolName: 'plain',
      args: {},
    });
    expect(fast.match(requestWith(), call('missing', {}, 'a'))).toEqual({
      kind: 'call',
      id: 'a',
      toolName: 'missing',
      args: {},
    });
    expect(
      fast.match(requestWith(), { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'plain' } }),
    ).toEqual({ kind: 'call', id: 2, toolName: 'plain', args: undefined });
  });

  it('leaves tools that may stream to the SDK', () => {
    for (const name of ['reads_context', 'declared_context', 'built_action', 'custom', 'task_tool'])
      expect(fast.match(requestWith(), call(name))).toBeUndefined();
  });

  it('leaves progress tokens, _meta, tasks, odd params and odd arguments to the SDK', () => {
    for (const extra of [
      { _meta: { progressToken: 1 } },
      { _meta: {} },
      { task: { ttl: 1000 } },
      { arguments: [1, 2] },
      { arguments: 'x' },
      { name: 42 },
    ])
      expect(fast.match(requestWith(), call('plain', extra))).toBeUndefined();
    expect(
      fast.match(requestWith(), { jsonrpc: '2.0', id: 1, method: 'tools/call', params: [] }),
    ).toBeUndefined();
    expect(fast.match(requestWith(), { jsonrpc: '2.0', id: 1, method: 'tools/call' })).toBeUndefined();
  });

  it('takes tools/list with no params or a cursor only', () => {
    expect(fast.match(requestWith(), { jsonrpc: '2.0', id: 3, method: 'tools/list' })).toEqual({
      kind: 'list',
      id: 3,
    });
    expect(
      fast.match(requestWith(), { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { cursor: 'c' } }),
    ).toEqual({ kind: 'list', id: 3 });
    for (const params of [{ cursor: 1 }, { _meta: {} }, 'x'])
      expect(
        fast.match(requestWith(), { jsonrpc: '2.0', id: 3, method: 'tools/list', params }),
      ).toBeUndefined();
  });

  it('leaves batches, notifications, responses and other methods to the SDK', () => {
    expect(fast.match(requestWith(), [call('plain')])).toBeUndefined();
    expect(
      fast.match(requestWith(), { jsonrpc: '2.0', method: 'tools/call', params: { name: 'plain' } }),
    ).toBeUndefined();
    expect(fast.match(requestWith(), { jsonrpc: '2.0', id: 1, result: {} })).toBeUndefined();
    expect(
      fast.match(requestWith(), { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }),
    ).toBeUndefined();
    expect(fast.match(requestWith(), { jsonrpc: '2.0', id: 1, method: 'ping' })).toBeUndefined();
    expect(fast.match(requestWith(), null)).toBeUndefined();
  });

  it('takes only the headers the SDK accepts, in their plain forms', () => {
    for (const headers of [
      { 'content-type': 'application/json; charset=utf-8' },
      { 'content-type': 'Application/JSON' },
      { 'mcp-protocol-version': undefined },
      { accept: 'text/event-stream, application/json;q=0' },
    ])
      expect(fast.match(requestWith(headers), call('plain'))).toBeDefined();
    for (const headers of [
      { accept: 'application/json' },
      { accept: 'text/event-stream' },
      { accept: undefined },
      { 'content-type': 'text/plain' },
      { 'content-type': 'application/json; charset=latin1' },
      { 'content-type': undefined },
      { 'mcp-protocol-version': '1999-01-01' },
    ])
      expect(fast.match(requestWith(headers), call('plain'))).toBeUndefined();
  });
});

describe('FastToolCalls.canRun', () => {
  const { fast, calls } = buildFast();
  const list = { kind: 'list' as const, id: 1 };
  const plain = { kind: 'call' as const, id: 1, toolName: 'plain', args: {} };

  it('runs calls when the client cannot answer questions, never a second call with an id in flight', () => {
    const state = calls.newSessionState();
    const noClient = { getClientCapabilities: () => undefined };
    expect(fast.canRun(plain, { state, sessionId: null, server: noClient })).toBe(true);
    const inFlight = new Map([[1, () => undefined]]);
    expect(fast.canRun(plain, { state, sessionId: 's', server: noClient, inFlight })).toBe(false);
    expect(fast.canRun(list, { state, sessionId: 's', server: noClient, inFlight })).toBe(true);
  });

  it('leaves calls of a session whose client declared elicitation to the SDK (approval may ask it)', () => {
    const state = calls.newSessionState();
    const asker = { getClientCapabilities: () => ({ elicitation: {} }) };
    expect(fast.canRun(plain, { state, sessionId: 's', server: asker })).toBe(false);
    expect(fast.canRun(list, { state, sessionId: 's', server: asker })).toBe(true);
    const sampler = { getClientCapabilities: () => ({ sampling: {} }) };
    expect(fast.canRun(plain, { state, sessionId: 's', server: sampler })).toBe(true);
  });
});
