// `protolink mcp login|logout --url` against a real protected MCP server on 127.0.0.1; the test plays the browser:
// it opens the printed URL, follows the authorization server's redirect to the CLI's loopback listener.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliIo } from '../../../lib/cli/cli-io';
import { runCli } from '../../../lib/cli/run-cli';
import { startLoopbackRedirectListener } from '../../../lib/cli/loopback-redirect-listener';
import { ToolRuntimeError } from '../../../lib/errors/tool-runtime-error';
import { startProtectedMcpServer } from '../../../samples/12-mcp-sign-in/protected-server';
import type { ProtectedServer } from '../../../samples/12-mcp-sign-in/protected-server';

jest.setTimeout(30_000);

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI; `browser` sees each line printed while it runs (to open the sign-in URL). */
async function cli(argv: string[], browser?: (line: string) => void): Promise<CliRun> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const io: CliIo = {
    out: (text) => {
      stdout.push(text);
      browser?.(text);
    },
    err: (text) => stderr.push(text),
  };
  const code = await runCli(argv, io);
  return { code, stdout: stdout.join('\n'), stderr: stderr.join('\n') };
}

/** A browser that approves: opens the printed authorization URL and follows its redirect to the listener. */
function approvingBrowser(seen: { redirect?: URL; callbackStatus?: number }): (line: string) => void {
  return (line) => {
    const match = /https?:\/\/\S+\/authorize\S*/.exec(line);
    if (!match) return;
    void (async () => {
      const response = await fetch(match[0], { redirect: 'manual' });
      seen.redirect = new URL(response.headers.get('location') as string);
      seen.callbackStatus = (await fetch(seen.redirect)).status;
    })();
  };
}

describe('protolink mcp login / logout', () => {
  let server: ProtectedServer;
  let directory: string;
  const previous = process.env.PROTOLINK_MCP_AUTH_DIR;

  beforeEach(async () => {
    server = await startProtectedMcpServer();
    directory = mkdtempSync(join(tmpdir(), 'protolink-cli-auth-'));
    process.env.PROTOLINK_MCP_AUTH_DIR = join(directory, 'mcp-auth');
  });

  afterEach(async () => {
    if (previous === undefined) delete process.env.PROTOLINK_MCP_AUTH_DIR;
    else process.env.PROTOLINK_MCP_AUTH_DIR = previous;
    await server.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('signs in through a loopback listener, then list and call use the stored tokens, and logout deletes them', async () => {
    const seen: { redirect?: URL; callbackStatus?: number } = {};
    const login = await cli(['mcp', 'login', '--url', server.url, '--no-browser'], approvingBrowser(seen));
    expect(login.stderr).toBe('');
    expect(login.code).toBe(0);
    expect(login.stdout).toContain(`Open this URL in a browser to sign in to ${server.url}`);
    expect(login.stdout).toMatch(
      /Signed in to http:\/\/127\.0\.0\.1:\d+\/mcp: 2 tools\. Tokens are kept in /,
    );
    expect(seen.redirect?.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(seen.redirect?.pathname).toBe('/callback');
    expect(seen.callbackStatus).toBe(200);
    const files = readdirSync(join(directory, 'mcp-auth'));
    expect(files).toHaveLength(1);
    expect(statSync(join(directory, 'mcp-auth', files[0])).mode & 0o777).toBe(0o600);
    // The listener is closed once the code arrived.
    await expect(fetch(seen.redirect as URL)).rejects.toThrow();

    const list = await cli(['mcp', 'list', '--url', server.url]);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/whoami/);
    const call = await cli(['mcp', 'call', 'whoami', '--url', server.url]);
    expect(call).toEqual({ code: 0, stdout: 'signed in with scopes: mcp', stderr: '' });
    expect(server.authorizations).toHaveLength(1);

    const again = await cli(['mcp', 'login', '--url', server.url, '--no-browser']);
    expect(again.stdout).toContain('Already signed in to');

    const logout = await cli(['mcp', 'logout', '--url', server.url]);
    expect(logout).toEqual({ code: 0, stdout: `Signed out of ${server.url}.`, stderr: '' });
    expect(readdirSync(join(directory, 'mcp-auth'))).toEqual([]);
    expect((await cli(['mcp', 'logout', '--url', server.url])).stdout).toContain('Not signed in to');

    const after = await cli(['mcp', 'list', '--url', server.url]);
    expect(after.code).toBe(1);
    expect(after.stderr).toContain(`MCPSignInRequiredError: MCP server 'http:127.0.0.1:`);
    expect(after.stderr).toContain(`Run \`protolink mcp login --url ${server.url}\``);
    for (const secret of server.secrets()) {
      for (const output of [login, list, call, again, logout, after])
        expect(JSON.stringify(output)).not.toContain(secret);
    }
  });

  it('needs --url', async () => {
    const result = await cli(['mcp', 'logout']);
    expect(result.code).toBe(2);
    const bad = await cli(['mcp', 'logout', '--url', 'ftp://example.com/mcp']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('protolink mcp logout needs an http(s) --url, got "ftp:"');
  });
});

describe('startLoopbackRedirectListener', () => {
  it('answers redirects of another state with 400 and accepts the one with the right state', async () => {
    const listener = await startLoopbackRedirectListener();
    const waiting = listener.waitForCode('right-state', 10_000);
    const wrong = await fetch(`${listener.redirectUrl}?code=stolen&state=other`);
    expect(wrong.status).toBe(400);
    const other = await fetch(new URL('/elsewhere', listener.redirectUrl));
    expect(other.status).toBe(404);
    const right = await fetch(`${listener.redirectUrl}?code=the-code&state=right-state`);
    expect(right.status).toBe(200);
    await expect(waiting).resolves.toBe('the-code');
    await expect(fetch(`${listener.redirectUrl}?code=second&state=right-state`)).rejects.toThrow();
  });

  it('fails with the authorization server error, and when nothing arrives in time', async () => {
    const refused = await startLoopbackRedirectListener();
    const waiting = refused.waitForCode('s', 10_000);
    await fetch(`${refused.redirectUrl}?error=access_denied&error_description=user+said+no&state=s`);
    await expect(waiting).rejects.toThrow(
      new ToolRuntimeError('The authorization server refused the sign-in: access_denied (user said no).'),
    );
    const idle = await startLoopbackRedirectListener();
    await expect(idle.waitForCode('s', 50)).rejects.toThrow(
      /No sign-in arrived at http:\/\/127\.0\.0\.1:\d+\/callback within 0 s/,
    );
  });
});
