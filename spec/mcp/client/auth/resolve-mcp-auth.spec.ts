import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import {
  ClientCredentialsProvider,
  PrivateKeyJwtProvider,
} from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { ToolInputError } from '../../../../lib/errors/tool-input-error';
import { ToolRuntimeError } from '../../../../lib/errors/tool-runtime-error';
import { FileTokenStore, MCPToolAdapter, MemoryTokenStore } from '../../../../lib/mcp/client';
import type { MCPAuthOptions } from '../../../../lib/mcp/client';
import { McpOAuthProvider } from '../../../../lib/mcp/client/auth/mcp-oauth-provider';
import { resolveMcpAuth } from '../../../../lib/mcp/client/auth/resolve-mcp-auth';

const TARGET = {
  transport: 'http',
  url: new URL('http://127.0.0.1:9/mcp'),
  serverName: 'remote',
  displayUrl: 'http://127.0.0.1:9/mcp',
};

describe('resolveMcpAuth', () => {
  it('uses an SDK OAuthClientProvider as is', () => {
    const provider = new ClientCredentialsProvider({ clientId: 'id', clientSecret: 'secret' });
    const handle = resolveMcpAuth(provider as OAuthClientProvider, TARGET)!;
    expect(handle.provider).toBe(provider);
    expect(handle.own).toBeUndefined();
  });

  it('builds our provider on a fresh memory store for the code flow', () => {
    const handle = resolveMcpAuth({ onAuthorizationUrl: () => 'code' }, TARGET)!;
    expect(handle.own).toBeInstanceOf(McpOAuthProvider);
    expect(handle.maxAttempts).toBe(3);
    expect(handle.own!.clientMetadata).toEqual({
      client_name: 'protolink',
      redirect_uris: ['http://127.0.0.1/callback'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    });
    expect(inspect(handle.own)).toBe('McpOAuthProvider { server: remote }');
  });

  it('builds the SDK client_credentials providers: client secret or private key', () => {
    const basic = resolveMcpAuth({ grant: 'client_credentials', clientId: 'a', clientSecret: 's' }, TARGET)!;
    expect(basic.provider).toBeInstanceOf(ClientCredentialsProvider);
    const jwt = resolveMcpAuth(
      {
        grant: 'client_credentials',
        clientId: 'a',
        privateKey: '-----BEGIN PRIVATE KEY-----',
        signingAlgorithm: 'ES256',
      },
      TARGET,
    )!;
    expect(jwt.provider).toBeInstanceOf(PrivateKeyJwtProvider);
  });

  it.each<[string, MCPAuthOptions, RegExp]>([
    [
      'client_credentials without a secret or key',
      { grant: 'client_credentials', clientId: 'a' },
      /exactly one of 'clientSecret'/,
    ],
    [
      'client_credentials with both',
      { grant: 'client_credentials', clientId: 'a', clientSecret: 's', privateKey: 'k' },
      /exactly one/,
    ],
    [
      'an unknown grant',
      { grant: 'password' as never },
      /'auth\.grant' of MCP server 'remote' must be 'authorization_code' or 'client_credentials'/,
    ],
    ['an empty clientId', { clientId: '' }, /'auth\.clientId' .* must be a non-empty string/],
    [
      'scopes that are not strings',
      { scopes: [1] as never },
      /'auth\.scopes' .* must be an array of strings/,
    ],
    ['a callback that is not a function', { onAuthorizationUrl: 'x' as never }, /'auth\.onAuthorizationUrl'/],
    [
      'a store without delete',
      { tokenStore: { load: () => undefined, save: () => undefined } as never },
      /'auth\.tokenStore' .* MCPTokenStore/,
    ],
    ['maxAttempts of zero', { maxAttempts: 0 }, /'auth\.maxAttempts' .* positive integer/],
    [
      'a metadata URL over http',
      { clientMetadataUrl: 'http://example.com/client.json' },
      /'auth\.clientMetadataUrl' .* https URL/,
    ],
  ])('refuses %s with a ToolInputError', (_name, options, message) => {
    expect(() => resolveMcpAuth(options, TARGET)).toThrow(ToolInputError);
    expect(() => resolveMcpAuth(options, TARGET)).toThrow(message);
  });

  it('refuses auth on stdio and a non-object auth', () => {
    expect(() => resolveMcpAuth({}, { ...TARGET, transport: 'stdio', url: undefined })).toThrow(
      "'auth' applies to the 'http' and 'sse' transports; MCP server 'remote' runs over stdio, where credentials go in 'env'.",
    );
    expect(() => resolveMcpAuth('token' as never, TARGET)).toThrow(/must be an options object/);
  });

  it('is checked at first use of the adapter, not at construction', async () => {
    const adapter = new MCPToolAdapter({ transport: 'stdio', command: 'node', auth: {} });
    await expect(adapter.listTools()).rejects.toThrow(ToolInputError);
  });
});

describe('McpOAuthProvider', () => {
  const build = (options: MCPAuthOptions = {}) =>
    new McpOAuthProvider({
      serverUrl: 'http://s/mcp',
      serverName: 's',
      displayUrl: 'http://s/mcp',
      options,
      store: new MemoryTokenStore(),
    });

  it('hides the refresh token during a step-up and keeps the old refresh token when a refresh returns none', async () => {
    const provider = build();
    await provider.saveTokens({
      access_token: 'a1',
      token_type: 'Bearer',
      refresh_token: 'r1',
      expires_in: 3600,
    });
    provider.startStepUp();
    expect((await provider.tokens())?.refresh_token).toBeUndefined();
    await provider.saveTokens({ access_token: 'a2', token_type: 'Bearer' });
    expect(await provider.tokens()).toEqual({
      access_token: 'a2',
      token_type: 'Bearer',
      refresh_token: 'r1',
    });
    expect(await provider.needsRefresh()).toBe(false);
  });

  it('says expired tokens need a refresh only when there is a refresh token', async () => {
    const provider = build();
    await provider.saveTokens({
      access_token: 'a',
      token_type: 'Bearer',
      refresh_token: 'r',
      expires_in: 60,
    });
    expect(await provider.needsRefresh(Date.now() + 31_000)).toBe(true);
    expect(await provider.needsRefresh()).toBe(false);
    await provider.invalidateCredentials('tokens');
    expect(await provider.tokens()).toBeUndefined();
  });

  it('uses a pre-registered client and never stores it', async () => {
    const provider = build({ clientId: 'pre', clientSecret: 'secret' });
    await provider.saveClientInformation({ client_id: 'other' });
    expect(await provider.clientInformation()).toEqual({ client_id: 'pre', client_secret: 'secret' });
  });

  it('has no verifier before an authorization started', () => {
    expect(() => build().codeVerifier()).toThrow(/needs you to sign in/);
  });
});

describe('token stores', () => {
  let directory: string;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'protolink-token-store-'));
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('MemoryTokenStore keeps copies and never prints its contents', () => {
    const store = new MemoryTokenStore();
    const data = { tokens: { access_token: 'secret-token', token_type: 'Bearer' } };
    store.save('u', data);
    data.tokens.access_token = 'changed';
    expect(store.load('u')?.tokens?.access_token).toBe('secret-token');
    expect(inspect(store)).not.toContain('secret-token');
    expect(JSON.stringify(store)).toBe('{"store":"memory","servers":1}');
    expect(store.delete('u')).toBe(true);
  });

  it('FileTokenStore needs a directory', () => {
    expect(() => new FileTokenStore({ directory: '' })).toThrow(ToolInputError);
  });

  it('FileTokenStore returns nothing for a file of another server and refuses a corrupt file without quoting it', async () => {
    const store = new FileTokenStore({ directory });
    expect(await store.load('http://a/mcp')).toBeUndefined();
    writeFileSync(
      store.fileOf('http://a/mcp'),
      JSON.stringify({ server: 'http://b/mcp', auth: { savedAt: 1 } }),
    );
    expect(await store.load('http://a/mcp')).toBeUndefined();
    writeFileSync(
      store.fileOf('http://a/mcp'),
      '{"server": "http://a/mcp", "auth": {"tokens": secret-garbage',
    );
    const error = await store.load('http://a/mcp').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolRuntimeError);
    expect((error as Error).message).toMatch(
      /is not valid JSON; delete it \(protolink mcp logout --url http:\/\/a\/mcp\)/,
    );
    expect((error as Error).message).not.toContain('secret-garbage');
  });

  it('FileTokenStore reports an unreadable file', async () => {
    const store = new FileTokenStore({ directory });
    mkdirSync(store.fileOf('http://a/mcp'));
    await expect(store.load('http://a/mcp')).rejects.toThrow(
      /Could not read the stored MCP sign-in of http:\/\/a\/mcp/,
    );
  });
});
