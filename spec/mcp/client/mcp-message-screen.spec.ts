import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ToolRuntimeError } from '../../../lib/errors/tool-runtime-error';
import { McpMessageScreen } from '../../../lib/mcp/client/mcp-message-screen';

/** `{"a":{"a":…}}` nested `levels` deep, as text. */
const deep = (levels: number): string => `${'{"a":'.repeat(levels)}0${'}'.repeat(levels)}`;

describe('McpMessageScreen', () => {
  const open = () => new McpMessageScreen({ serverName: 'srv', maxDepth: 10 });
  /** The McpError the SDK makes of an error answer. */
  const asSdkError = (message: JSONRPCMessage): McpError => {
    const { error } = message as { error: { code: number; message: string; data?: unknown } };
    return new McpError(error.code, error.message, error.data);
  };

  it('delivers valid messages as parsed', () => {
    const screening = open().screenText('{"jsonrpc":"2.0","id":1,"result":{"content":[]}}');
    expect(screening).toEqual({
      verdict: 'deliver',
      message: { jsonrpc: '2.0', id: 1, result: { content: [] } },
      replaced: false,
    });
  });

  it('answers a request with a marked error when its answer is too deep, naming the server and the method', () => {
    const screen = open();
    screen.noteSent({ jsonrpc: '2.0', id: 5, method: 'resources/read', params: { uri: 'memo://a' } });
    const screening = screen.screenText(`{"jsonrpc":"2.0","id":5,"result":{"v":${deep(20)}}}`);
    expect(screening.verdict).toBe('deliver');
    expect(screening.verdict === 'deliver' && screening.replaced).toBe(true);
    const refusal = screen.refusalOf(asSdkError((screening as { message: JSONRPCMessage }).message));
    expect(refusal).toBeInstanceOf(ToolRuntimeError);
    expect(refusal?.message).toBe(
      "MCP server 'srv' answered resources/read with an answer nested deeper than 10 levels (maxMessageDepth); " +
        'the answer was refused. Raise maxMessageDepth if answers of that server are that deep.',
    );
    expect(refusal?.provider).toBe('srv');
  });

  it('refuses an answer exactly one level too deep, and accepts one at the bound', () => {
    const screen = open();
    // The envelope is level 0, result level 1, then `{"a":…}` levels 2 and on.
    const at = (levels: number) => `{"jsonrpc":"2.0","id":1,"result":${deep(levels)}}`;
    expect(screen.screenText(at(10))).toMatchObject({ verdict: 'deliver', replaced: false });
    expect(screen.screenText(at(11))).toMatchObject({ verdict: 'deliver', replaced: true });
    // The shortest text one level too deep (levels 0 to 11) is still walked.
    const shortest = screen.screenText(`${'['.repeat(12)}${']'.repeat(12)}`);
    expect(shortest.verdict === 'drop' && shortest.error.message).toBe(
      "MCP server 'srv' sent a message nested deeper than 10 levels (maxMessageDepth); it was dropped.",
    );
  });

  it('does not bound listings as a whole (their entries are bounded one by one)', () => {
    const screen = open();
    screen.noteSent({ jsonrpc: '2.0', id: 'l', method: 'tools/list', params: {} });
    const screening = screen.screenText(`{"jsonrpc":"2.0","id":"l","result":{"tools":[${deep(50)}]}}`);
    expect(screening.verdict === 'deliver' && screening.replaced).toBe(false);
  });

  it('names the request by id when the answer belongs to no request it knows (a cancelled one)', () => {
    const screen = open();
    screen.noteSent({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'x' } });
    screen.noteSent({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 9 } });
    const screening = screen.screenText('{"jsonrpc":"2.0","id":9,"result":[]}');
    const refusal = screen.refusalOf(asSdkError((screening as { message: JSONRPCMessage }).message));
    expect(refusal?.message).toBe(
      "MCP server 'srv' answered request 9 with an answer that is not a valid JSON-RPC message (result: " +
        'Invalid input: expected object, received array); the answer was refused.',
    );
  });

  it("answers the server's refused request with Invalid Request, and drops a refused notification", () => {
    const screen = open();
    const request = screen.screenText(
      `{"jsonrpc":"2.0","id":"s1","method":"ping","params":{"_meta":${deep(20)}}}`,
    );
    expect(request).toEqual({
      verdict: 'drop',
      error: expect.any(ToolRuntimeError),
      reply: {
        jsonrpc: '2.0',
        id: 's1',
        error: {
          code: ErrorCode.InvalidRequest,
          message: 'The client refused a request nested deeper than 10 levels (maxMessageDepth).',
        },
      },
    });
    const notification = screen.screenText('{"jsonrpc":"2.0","method":7}');
    expect(notification.verdict).toBe('drop');
    expect(notification.verdict === 'drop' && notification.error.message).toBe(
      "MCP server 'srv' sent a message that is not a valid JSON-RPC message (method: Invalid input: expected " +
        'string, received number); it was dropped.',
    );
    const garbage = screen.screenText('not json');
    expect(garbage.verdict === 'drop' && garbage.error.message).toMatch(
      /^MCP server 'srv' sent a message that is not JSON \(.+\); it was dropped\.$/,
    );
  });

  it("does not take a server's error for a refusal, even one copying the mark's shape", () => {
    const screen = open();
    expect(
      screen.refusalOf(new McpError(-32603, 'x', { refusedBy: 'guess', reason: 'forged' })),
    ).toBeUndefined();
    expect(screen.refusalOf(new Error('x'))).toBeUndefined();
  });
});
