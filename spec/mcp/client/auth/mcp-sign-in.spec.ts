// Sign-in to a real protected MCP server on 127.0.0.1 (samples/12-mcp-sign-in/protected-server.ts: the MCP SDK's
// authorization server router and bearer-token middleware): the code flow, stored tokens, refresh, step-up,
// the retry bound, file stores with mode 0600, sign-out, and no token in any error, log line or serialized agent.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { format } from 'node:util';
import { Agent, AgentCard } from '../../../../lib';
import {
  FileTokenStore,
  MCPSignInRequiredError,
  MCPToolAdapter,
  MemoryTokenStore,
} from '../../../../lib/mcp/client';
import type { MCPAuthOptions } from '../../../../lib/mcp/client';
import { startProtectedMcpServer } from '../../../../samples/12-mcp-sign-in/protected-server';
import type { ProtectedServer } from '../../../../samples/12-mcp-sign-in/protected-server';

jest.setTimeout(30_000);

/** Follows the auto-approving authorization endpoint; checks that the redirect carries the request's state. */
async function approve(authorizationUrl: URL): Promise<string> {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  const location = new URL(response.headers.get('location') as string);
  expect(location.searchParams.get('state')).toBe(authorizationUrl.searchParams.get('state'));
  return location.searchParams.get('code') as string;
}

describe('MCPToolAdapter auth (a protected server on 127.0.0.1)', () => {
  let server: ProtectedServer;
  let directory: string;
  const adapters: MCPToolAdapter[] = [];
  const seen: string[] = [];

  const open = (auth: MCPAuthOptions, extra: { serverName?: string } = {}): MCPToolAdapter => {
    const adapter = new MCPToolAdapter({
      transport: 'http',
      url: server.url,
      serverName: 'protected',
      auth,
      ...extra,
    });
    adapters.push(adapter);
    return adapter;
  };
  const record = (value: unknown): void => {
    seen.push(value instanceof Error ? `${format(value)} ${JSON.stringify(value)}` : format(value));
  };

  beforeEach(async () => {
    server = await startProtectedMcpServer({ neverGrant: ['forbidden'] });
    directory = mkdtempSync(join(tmpdir(), 'protolink-sign-in-'));
  });

  afterEach(async () => {
    await Promise.all(adapters.splice(0).map((adapter) => adapter.close()));
    // No token, refresh token or code issued during the test may appear in anything the test saw.
    const secrets = server.secrets();
    for (const text of seen.splice(0)) for (const secret of secrets) expect(text).not.toContain(secret);
    await server.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('signs in through onAuthorizationUrl, calls the tool, and keeps the tokens in a 0600 file', async () => {
    const store = new FileTokenStore({ directory: join(directory, 'auth') });
    const urls: URL[] = [];
    const adapter = open({
      tokenStore: store,
      onAuthorizationUrl: (url) => {
        urls.push(url);
        return approve(url);
      },
    });
    // The server's 401 names the scope it needs ("mcp"): that is what is asked for.
    const whoami = await adapter.getCallable('whoami')();
    expect(whoami).toBe('signed in with scopes: mcp');
    expect(urls).toHaveLength(1);
    expect(urls[0].searchParams.get('code_challenge_method')).toBe('S256');
    expect(server.authorizations).toEqual([['mcp']]);
    const files = readdirSync(store.directory);
    expect(files).toEqual([expect.stringMatching(/^[0-9a-f]{32}\.json$/)]);
    expect(statSync(join(store.directory, files[0])).mode & 0o777).toBe(0o600);
    expect(statSync(store.directory).mode & 0o777).toBe(0o700);
    const stored = JSON.parse(readFileSync(join(store.directory, files[0]), 'utf8')) as {
      server: string;
      auth: { tokens: { access_token: string } };
    };
    expect(stored.server).toBe(server.url);
    expect(server.secrets()).toContain(stored.auth.tokens.access_token);

    // A second adapter (another process, say) on the same store signs in with no new authorization.
    const again = open({
      tokenStore: store,
      onAuthorizationUrl: () => Promise.reject(new Error('not needed')),
    });
    await expect(again.getCallable('whoami')()).resolves.toBe('signed in with scopes: mcp');
    expect(server.authorizations).toHaveLength(1);
    record(await again.listTools());
  });

  it('refreshes expired tokens with the refresh token, without asking the user again', async () => {
    const onAuthorizationUrl = jest.fn(approve);
    const adapter = open({ onAuthorizationUrl, scopes: ['mcp'] });
    await adapter.getCallable('whoami')();
    server.expireAccessTokens();
    await expect(adapter.getCallable('whoami')()).resolves.toMatch(/^signed in/);
    expect(server.refreshes()).toBe(1);
    expect(onAuthorizationUrl).toHaveBeenCalledTimes(1);
  });

  it('refreshes before opening a session when the stored tokens have run out', async () => {
    const store = new MemoryTokenStore();
    await open({ tokenStore: store, onAuthorizationUrl: approve }).getCallable('whoami')();
    const saved = store.load(server.url)!;
    store.save(server.url, { ...saved, savedAt: Date.now() - 2 * 3600 * 1000 });
    server.expireAccessTokens();
    const onAuthorizationUrl = jest.fn(approve);
    await expect(open({ tokenStore: store, onAuthorizationUrl }).getCallable('whoami')()).resolves.toMatch(
      /^signed/,
    );
    expect(server.refreshes()).toBe(1);
    expect(onAuthorizationUrl).not.toHaveBeenCalled();
    expect(store.load(server.url)!.savedAt).toBeGreaterThan(Date.now() - 60_000);
  });

  it('steps up on 403 insufficient_scope: the user is asked again for the larger scope, not a refresh', async () => {
    const onAuthorizationUrl = jest.fn(approve);
    const adapter = open({ onAuthorizationUrl });
    await adapter.getCallable('whoami')();
    await expect(adapter.getCallable('admin_action')()).resolves.toBe('admin action done');
    expect(server.authorizations.map((scopes) => scopes.join(' '))).toEqual(['mcp', 'mcp admin']);
    expect(onAuthorizationUrl).toHaveBeenCalledTimes(2);
    await expect(adapter.getCallable('whoami')()).resolves.toBe('signed in with scopes: mcp admin');
    expect(server.refreshes()).toBe(0);
  });

  it('stops after maxAttempts when the server keeps refusing the scope, with an error naming the server', async () => {
    await server.close();
    server = await startProtectedMcpServer({ neverGrant: ['admin'] });
    const onAuthorizationUrl = jest.fn(approve);
    const adapter = open({ onAuthorizationUrl, maxAttempts: 2 });
    const error = await adapter
      .getCallable('admin_action')()
      .catch((caught: unknown) => caught);
    record(error);
    expect(error).toBeInstanceOf(MCPSignInRequiredError);
    expect((error as MCPSignInRequiredError).message).toMatch(
      /MCP server 'protected' \(http:\/\/127\.0\.0\.1:\d+\/mcp\)/,
    );
    expect((error as MCPSignInRequiredError).message).toMatch(/403 insufficient_scope|sign-in attempts/);
    expect(onAuthorizationUrl.mock.calls.length).toBeLessThanOrEqual(2);
  });

  it('fails with MCPSignInRequiredError saying to run protolink mcp login when no code can be had', async () => {
    const adapter = open({});
    const error = await adapter.listTools().catch((caught: unknown) => caught);
    record(error);
    expect(error).toBeInstanceOf(MCPSignInRequiredError);
    const signIn = error as MCPSignInRequiredError;
    expect(signIn.code).toBe('MCP_SIGN_IN_REQUIRED');
    expect(signIn.message).toContain(`MCP server 'protected' (${server.url}) needs you to sign in`);
    expect(signIn.message).toContain(`protolink mcp login --url ${server.url}`);
    expect(signIn.toJSON()).toMatchObject({ provider: 'protected', serverUrl: server.url });
  });

  it('fails clearly when onAuthorizationUrl throws or resolves with no code', async () => {
    const thrown = await open({ onAuthorizationUrl: () => Promise.reject(new Error('window closed')) })
      .listTools()
      .catch((caught: unknown) => caught);
    expect(thrown).toBeInstanceOf(MCPSignInRequiredError);
    expect((thrown as Error).message).toMatch(
      /did not finish: auth\.onAuthorizationUrl failed \(window closed\)/,
    );
    const empty = await open({ onAuthorizationUrl: () => '' })
      .listTools()
      .catch((caught: unknown) => caught);
    expect(empty).toBeInstanceOf(MCPSignInRequiredError);
    expect((empty as Error).message).toMatch(
      /must resolve with the authorization code .* got an empty string/,
    );
    record(thrown);
    record(empty);
  });

  it('signs out: deleting the stored file makes the next session ask for sign-in again', async () => {
    const store = new FileTokenStore({ directory });
    await open({ tokenStore: store, onAuthorizationUrl: approve }).getCallable('whoami')();
    expect(await store.delete(server.url)).toBe(true);
    expect(await store.delete(server.url)).toBe(false);
    expect(readdirSync(directory)).toEqual([]);
    const error = await open({ tokenStore: store })
      .listTools()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MCPSignInRequiredError);
  });

  it('keeps tokens and secrets out of tool metadata, the agent serialization and console output', async () => {
    const writes: string[] = [];
    const spies = [
      jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => (writes.push(String(chunk)), true)),
      jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => (writes.push(String(chunk)), true)),
    ];
    try {
      const store = new MemoryTokenStore();
      const adapter = open({ tokenStore: store, onAuthorizationUrl: approve });
      const tools = await adapter.getTools();
      const agent = new Agent({
        card: new AgentCard({
          name: 'signed-in',
          description: 'uses a protected server',
          url: 'http://127.0.0.1:1',
        }),
      });
      for (const tool of tools) agent.addTool(tool);
      await agent.callTool('whoami', {});
      record(agent.toDict());
      record(agent.toYAML());
      record(JSON.stringify(agent.card));
      record(tools.map((tool) => tool.metadata));
      record(store);
      record(JSON.stringify(store));
      await adapter.printTools();
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    seen.push(...writes);
    expect(writes.join('')).toContain('whoami');
  });
});
