import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolCancelledError } from '../../../lib/errors/tool-cancelled-error';
import { ToolRuntimeError } from '../../../lib/errors/tool-runtime-error';
import { isSessionExpired, toMcpCallError } from '../../../lib/mcp/client/to-mcp-call-error';
import { serverStderrOf } from '../../../lib/mcp/client/attach-server-stderr';
import type { McpCallFailure } from '../../../lib/mcp/client/mcp-session';

const context = { toolName: 'tool', serverName: 'srv', timeoutMs: 500 };
const failure = (error: unknown, extra: Partial<McpCallFailure> = {}): McpCallFailure => ({
  error,
  fatal: undefined,
  sessionClosed: false,
  notSent: false,
  ...extra,
});

describe('toMcpCallError', () => {
  it('reports a cancellation when the caller aborted, whatever the SDK said', () => {
    const error = toMcpCallError(failure(new McpError(ErrorCode.RequestTimeout, 'x')), {
      ...context,
      signal: AbortSignal.abort('user left'),
    });
    expect(error).toBeInstanceOf(ToolCancelledError);
    expect(error.message).toBe(
      "The call of MCP tool 'tool' on server 'srv' was cancelled (user left); the server was sent notifications/cancelled.",
    );
  });

  it('reports a timeout, a total timeout, a closed connection, a fatal error and anything else', () => {
    expect(
      toMcpCallError(failure(new McpError(ErrorCode.RequestTimeout, 'Request timed out')), context).message,
    ).toBe(
      "MCP tool 'tool' on server 'srv' did not answer within 500 ms (timeoutMs); the server was sent notifications/cancelled.",
    );
    expect(
      toMcpCallError(
        failure(
          new McpError(ErrorCode.RequestTimeout, 'Maximum total timeout exceeded', { maxTotalTimeout: 900 }),
        ),
        context,
      ).message,
    ).toBe(
      "MCP tool 'tool' on server 'srv' did not finish within 900 ms (maxTotalTimeoutMs) although it kept reporting progress.",
    );
    const closed = toMcpCallError(failure(new McpError(ErrorCode.ConnectionClosed, 'Connection closed')), {
      ...context,
      stderr: 'segfault',
    });
    expect(closed).toBeInstanceOf(ToolRuntimeError);
    expect(closed.message).toMatch(
      /^The connection to MCP server 'srv' closed while tool 'tool' was running .* The server wrote to stderr; see error\.serverStderr\.$/,
    );
    expect(
      toMcpCallError(failure(new McpError(ErrorCode.ConnectionClosed, 'Connection closed')), context).message,
    ).toMatch(/the next call opens a new session\.$/);
    const fatal = new ToolRuntimeError('too big');
    expect(toMcpCallError(failure(new Error('aborted'), { fatal }), context).message).toBe(
      "MCP tool 'tool' on server 'srv' failed: too big",
    );
    expect(toMcpCallError(failure('weird'), context).message).toBe(
      "MCP tool 'tool' on server 'srv' failed: weird",
    );
  });
});

describe('toMcpCallError with a server stderr', () => {
  it('keeps the stderr out of the message and toJSON, and attaches it as serverStderr', () => {
    const secret = 'Error: connect failed for postgres://app:hunter2@db\n    at connect (/srv/db.js:1:1)';
    const error = toMcpCallError(failure(new McpError(ErrorCode.ConnectionClosed, 'Connection closed')), {
      ...context,
      stderr: secret,
    });
    expect(error.message).not.toContain('hunter2');
    expect(JSON.stringify(error)).not.toContain('hunter2');
    expect(JSON.stringify(error.toJSON())).not.toContain('hunter2');
    expect(Object.keys(error)).not.toContain('serverStderr');
    expect((error as ToolRuntimeError & { serverStderr?: string }).serverStderr).toBe(secret);
    expect(serverStderrOf(new ToolRuntimeError('wrapped', { cause: error }))).toBe(secret);
    expect(serverStderrOf(new ToolRuntimeError('plain'))).toBeUndefined();
  });
});

describe('isSessionExpired', () => {
  it('recognizes HTTP 404 from the streamable HTTP transport, and nothing else', () => {
    expect(
      isSessionExpired(
        failure(new StreamableHTTPError(404, 'Error POSTing to endpoint: Session not found')),
        'http',
      ),
    ).toBe(true);
    expect(isSessionExpired(failure(new StreamableHTTPError(500, 'boom')), 'http')).toBe(false);
    expect(isSessionExpired(failure(undefined), 'http')).toBe(false);
  });

  it('never counts a JSON-RPC error, message text or another transport as an expired session', () => {
    const rpc404 = new McpError(404, 'upstream answered HTTP 404: session of the payment gateway not found');
    expect(isSessionExpired(failure(rpc404), 'http')).toBe(false);
    expect(isSessionExpired(failure(rpc404), 'stdio')).toBe(false);
    const text = new Error('Error POSTing to endpoint (HTTP 404): session unknown');
    expect(isSessionExpired(failure(text), 'http')).toBe(false);
    expect(isSessionExpired(failure(Object.assign(new Error('x'), { code: 404 })), 'http')).toBe(false);
    const transport404 = new StreamableHTTPError(404, 'Error POSTing to endpoint: Session not found');
    expect(isSessionExpired(failure(transport404), 'sse')).toBe(false);
    expect(isSessionExpired(failure(transport404), 'stdio')).toBe(false);
  });
});
