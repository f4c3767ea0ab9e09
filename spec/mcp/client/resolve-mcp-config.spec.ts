import { ToolInputError } from '../../../lib/errors/tool-input-error';
import { redactUrl } from '../../../lib/mcp/client/redact-url';
import {
  redactUrl as redactUrlFromConfig,
  resolveMcpConfig,
  summarizeMcpConfig,
} from '../../../lib/mcp/client/resolve-mcp-config';

describe('resolveMcpConfig', () => {
  it('fills in the defaults for stdio', () => {
    const config = resolveMcpConfig({ command: '/usr/bin/node', args: null, env: null });
    expect(config).toMatchObject({
      transport: 'stdio',
      args: [],
      env: {},
      headers: {},
      timeoutMs: 30_000,
      maxTotalTimeoutMs: 120_000,
      session: 'persistent',
      serverName: 'stdio:node',
      namePrefix: '',
      maxMessageDepth: 1_000,
    });
  });

  it('parses the url of sse and http transports and names the server after its host', () => {
    expect(resolveMcpConfig({ transport: 'http', url: 'http://127.0.0.1:3001/mcp' }).serverName).toBe(
      'http:127.0.0.1:3001',
    );
    expect(
      resolveMcpConfig({ transport: 'sse', url: 'http://127.0.0.1/sse', timeoutMs: 5 }).maxTotalTimeoutMs,
    ).toBe(20);
  });

  it.each([
    [{ transport: 'ws' }, "Unknown transport: ws. Use 'stdio', 'sse' or 'http'."],
    [{ transport: 'stdio', command: '  ' }, "Provide 'command' for stdio transport."],
    [{ transport: 'sse' }, "Provide 'url' for SSE transport."],
    [{ transport: 'http', url: '' }, "Provide 'url' for HTTP transport."],
    [{ transport: 'http', url: 'not a url' }, `'url' for HTTP transport is not a valid URL: "not a url".`],
    [
      { transport: 'sse', url: 'file:///etc/passwd' },
      `'url' for SSE transport must start with http:// or https://, got "file:".`,
    ],
    [
      { command: 'x', args: [1] as never },
      "'args' must be an array of strings, passed to the command unchanged.",
    ],
    [
      { command: 'x', env: { A: 1 } as never },
      "'env' must be an object of string values, e.g. { API_TOKEN: '…' }.",
    ],
    [{ command: 'x', maxResultChars: Number.NaN }, "'maxResultChars' must be a positive number, got NaN."],
    [{ command: 'x', maxMessageDepth: 0 }, "'maxMessageDepth' must be a positive number, got 0."],
  ])('rejects %j', (options, message) => {
    expect(() => resolveMcpConfig(options)).toThrow(ToolInputError);
    expect(() => resolveMcpConfig(options)).toThrow(message);
  });
});

describe('summarizeMcpConfig', () => {
  it('keeps the names of env variables, never their values', () => {
    const summary = summarizeMcpConfig(
      resolveMcpConfig({ command: 'node', args: ['server.js'], env: { TOKEN: 's3cret' }, cwd: '/srv' }),
    );
    expect(summary).toEqual({
      server: 'stdio:node',
      transport: 'stdio',
      session: 'persistent',
      command: 'node',
      args: ['server.js'],
      cwd: '/srv',
      envNames: ['TOKEN'],
    });
    expect(JSON.stringify(summary)).not.toContain('s3cret');
  });

  it('masks secrets in the command arguments', () => {
    const summary = summarizeMcpConfig(
      resolveMcpConfig({
        command: 'node',
        args: ['server.js', 'postgresql://user:hunter2@db/x', '--api-key', 'sk-hunter2', '--token=hunter2'],
      }),
    );
    expect(summary.args).toEqual([
      'server.js',
      'postgresql://db/x',
      '--api-key',
      'redacted',
      '--token=redacted',
    ]);
    expect(JSON.stringify(summary)).not.toContain('hunter2');
  });

  it('keeps the names of headers and a URL without credentials or query values', () => {
    const summary = summarizeMcpConfig(
      resolveMcpConfig({
        transport: 'http',
        url: 'https://user:pw@mcp.example/mcp?key=s3cret',
        headers: { Authorization: 'Bearer s3cret' },
      }),
    );
    expect(summary).toMatchObject({
      url: 'https://mcp.example/mcp?key=redacted',
      headerNames: ['Authorization'],
    });
    expect(JSON.stringify(summary)).not.toContain('s3cret');
    expect(JSON.stringify(summary)).not.toContain('pw');
  });
});

describe('redactUrl', () => {
  it('is still exported from resolve-mcp-config, where the CLI imports it', () => {
    expect(redactUrlFromConfig).toBe(redactUrl);
  });
});
