import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';

/** The protocol version every bench request announces (the SDK's latest). */
export const PROTOCOL_VERSION = LATEST_PROTOCOL_VERSION;

/** The two integers every bench call adds, and the text the answer must carry. */
export const ADD_ARGUMENTS = { a: 20, b: 22 } as const;
export const EXPECTED_TEXT = '"text":"42"';

function headersFor(token: string | undefined, sessionId?: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': PROTOCOL_VERSION,
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    ...(sessionId ? { 'mcp-session-id': sessionId } : {}),
  };
}

async function post(url: string, body: unknown, token?: string, sessionId?: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: headersFor(token, sessionId),
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
}

/**
 * Opens `count` MCP sessions the way a client does (`initialize`, then `notifications/initialized`) and
 * returns their ids. One session per load connection, as 50 real clients would have.
 */
export async function openSessions(url: string, count: number, token?: string): Promise<string[]> {
  const ids: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const response = await post(
      url,
      {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: {
          protocolVersion: PROTOCOL_VERSION,
          capabilities: {},
          clientInfo: { name: 'serve-load-bench', version: '1.0.0' },
        },
      },
      token,
    );
    const text = await response.text();
    const id = response.headers.get('mcp-session-id');
    if (response.status !== 200 || !id) {
      throw new RangeError(`initialize got ${response.status} without a session id: ${text.slice(0, 300)}`);
    }
    const initialized = await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, token, id);
    await initialized.text();
    if (initialized.status !== 202) {
      throw new RangeError(`notifications/initialized got ${initialized.status} (expected 202)`);
    }
    ids.push(id);
  }
  return ids;
}

/** Sends one `add` call outside the load run and checks the answer carries the sum; returns the error, if any. */
export async function checkOneCall(
  url: string,
  token?: string,
  sessionId?: string,
): Promise<string | undefined> {
  const response = await post(
    url,
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'add', arguments: ADD_ARGUMENTS } },
    token,
    sessionId,
  );
  const text = await response.text();
  if (response.status === 200 && text.includes(EXPECTED_TEXT)) return undefined;
  return `${response.status} ${text.slice(0, 200)}`;
}
