// `protolink mcp login|logout --url` against a real protected MCP server on 127.0.0.1; the test plays the browser:
// it opens the printed URL, follows the authorization server's redirect to the CLI's loopback listener.
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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

/**
 * A protected MCP endpoint whose authorization server metadata names `authorizationEndpoint`: the party being
 * signed in to chooses the URL the CLI is asked to open.
 */
async function startServerWithAuthorizationEndpoint(
  authorizationEndpoint: string,
): Promise<{ url: string; close: () => Promise<void> }> {
  let origin = '';
  const server: Server = createServer((request, response) => {
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(JSON.stringify(body));
    };
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = new URL(request.url ?? '/', origin).pathname;
      if (path === '/mcp') {
        send(
          401,
          { error: 'invalid_token' },
          {
            'www-authenticate': `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
          },
        );
      } else if (path.startsWith('/.well-known/oauth-protected-resource')) {
        send(200, { resource: `${origin}/mcp`, authorization_servers: [origin] });
      } else if (path === '/.well-known/oauth-authorization-server') {
        send(200, {
          issuer: origin,
          authorization_endpoint: authorizationEndpoint,
          token_endpoint: `${origin}/token`,
          registration_endpoint: `${origin}/register`,
          response_types_supported: ['code'],
          code_challenge_methods_supported: ['S256'],
        });
      } else if (path === '/register') {
        send(201, { ...JSON.parse(Buffer.concat(chunks).toString('utf8')), client_id: 'client' });
      } else {
        send(404, { error: 'not_found' });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/mcp`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Puts a stand-in `xdg-open` first on the PATH and pretends there is a display, for the duration of `body`;
 * returns the argv the stand-in was started with, or `undefined` when it never ran.
 */
async function withRecordingBrowser(
  directory: string,
  body: () => Promise<void>,
): Promise<string[] | undefined> {
  const bin = join(directory, 'bin');
  const record = join(directory, 'browser-argv.json');
  rmSync(bin, { recursive: true, force: true });
  rmSync(record, { force: true });
  mkdirSync(bin);
  writeFileSync(
    join(bin, 'xdg-open'),
    `#!${process.execPath}\nrequire('node:fs').writeFileSync(${JSON.stringify(record)}, JSON.stringify(process.argv.slice(2)));\n`,
  );
  chmodSync(join(bin, 'xdg-open'), 0o755);
  // The command hands this (jest's) process.env to the opener, so the stand-in is found through it.
  const saved = { PATH: process.env.PATH, DISPLAY: process.env.DISPLAY };
  process.env.PATH = `${bin}:${saved.PATH ?? ''}`;
  process.env.DISPLAY = ':0';
  try {
    await body();
  } finally {
    process.env.PATH = saved.PATH;
    if (saved.DISPLAY === undefined) delete process.env.DISPLAY;
    else process.env.DISPLAY = saved.DISPLAY;
  }
  // The opener is detached: give it time to start and write down its argv.
  for (let waited = 0; waited < 2000 && !existsSync(record); waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return existsSync(record) ? (JSON.parse(readFileSync(record, 'utf8')) as string[]) : undefined;
}

const onLinux = process.platform === 'linux' ? it : it.skip;

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

  onLinux("opens the loopback authorization URL with the URL as the opener's one argument", async () => {
    const seen: { redirect?: URL; callbackStatus?: number } = {};
    let login: CliRun | undefined;
    const argv = await withRecordingBrowser(directory, async () => {
      login = await cli(['mcp', 'login', '--url', server.url], approvingBrowser(seen));
    });
    expect(login?.stderr).toBe('');
    expect(login?.code).toBe(0);
    const printed = /\n\n {2}(\S+)\n/.exec(login?.stdout ?? '')?.[1];
    expect(printed).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/authorize\?/);
    expect(argv).toEqual([printed]);
  });

  onLinux.each([
    ['smb://attacker.example/share&calc.exe&rem/authorize'],
    ['file:///usr/bin/xcalc'],
    ['http://attacker.example/authorize'],
  ])(
    'does not open the authorization URL %s the server names, and prints it with the reason',
    async (endpoint) => {
      const hostile = await startServerWithAuthorizationEndpoint(endpoint);
      let login: CliRun | undefined;
      try {
        const argv = await withRecordingBrowser(directory, async () => {
          login = await cli(['mcp', 'login', '--url', hostile.url, '--timeout', '1']);
        });
        expect(argv).toBeUndefined();
      } finally {
        await hostile.close();
      }
      expect(login?.stdout).toContain(`Open this URL in a browser to sign in to ${hostile.url}`);
      expect(login?.stdout).toContain(`\n\n  ${new URL(endpoint).protocol}//`);
      expect(login?.stdout).toMatch(
        /\nNot opening an? (non-https|http) URL .*automatically.*; copy the URL above into a browser\./,
      );
      expect(login?.code).toBe(1);
    },
  );

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
