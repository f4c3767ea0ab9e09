import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import {
  ClientCredentialsProvider,
  PrivateKeyJwtProvider,
} from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { ToolInputError } from '../../../errors/tool-input-error';
import { MemoryTokenStore } from './memory-token-store';
import type { MCPAuth, MCPAuthOptions } from './mcp-auth-options';
import { McpOAuthProvider } from './mcp-oauth-provider';

/** Sign-in rounds allowed for one request when `maxAttempts` is not given. */
const DEFAULT_MAX_ATTEMPTS = 3;

/** The sign-in machinery of one adapter, shared by all its sessions (tokens outlive a session). */
export interface McpAuthHandle {
  /** The provider the SDK transports run `auth()` on. */
  readonly provider: OAuthClientProvider;
  /** Our provider, when the `auth` option was {@link MCPAuthOptions} (absent for an SDK provider as is). */
  readonly own: McpOAuthProvider | undefined;
  /** Most sign-in rounds for one request. */
  readonly maxAttempts: number;
  /** The server's label, for messages. */
  readonly serverName: string;
  /** The server URL with query values redacted, for messages. */
  readonly displayUrl: string;
  /** The server URL (the token store key). */
  readonly serverUrl: string;
}

/** Where the auth handle is built: the checked connection settings. */
export interface McpAuthTarget {
  readonly transport: string;
  readonly url: URL | undefined;
  readonly serverName: string;
  readonly displayUrl: string;
}

/** Whether a value is an MCP SDK `OAuthClientProvider` (used as is) rather than {@link MCPAuthOptions}. */
export function isOAuthClientProvider(value: unknown): value is OAuthClientProvider {
  const candidate = value as Partial<OAuthClientProvider> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.tokens === 'function' &&
    typeof candidate.saveTokens === 'function' &&
    typeof candidate.redirectToAuthorization === 'function'
  );
}

/**
 * Checks the `auth` option and builds the adapter's sign-in handle: an SDK provider is used as is; our
 * options become an {@link McpOAuthProvider} on their token store (a new in-memory one by default), or, for
 * `grant: 'client_credentials'`, the SDK's `ClientCredentialsProvider` (client secret) or
 * `PrivateKeyJwtProvider` (private key).
 *
 * @throws ToolInputError for auth on stdio, or options of the wrong type or missing for the grant.
 */
export function resolveMcpAuth(
  auth: MCPAuth | null | undefined,
  target: McpAuthTarget,
): McpAuthHandle | undefined {
  if (auth === undefined || auth === null) return undefined;
  if (target.transport === 'stdio' || !target.url) {
    throw new ToolInputError(
      `'auth' applies to the 'http' and 'sse' transports; MCP server '${target.serverName}' runs over stdio, where credentials go in 'env'.`,
    );
  }
  const base = {
    serverName: target.serverName,
    displayUrl: target.displayUrl,
    serverUrl: target.url.href,
  };
  if (isOAuthClientProvider(auth))
    return { ...base, provider: auth, own: undefined, maxAttempts: DEFAULT_MAX_ATTEMPTS };
  if (typeof auth !== 'object' || Array.isArray(auth)) {
    throw new ToolInputError(
      `'auth' of MCP server '${target.serverName}' must be an options object ({ onAuthorizationUrl, tokenStore, … }) or an OAuthClientProvider of the MCP SDK.`,
    );
  }
  const options = checkOptions(auth, target.serverName);
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  if (options.grant === 'client_credentials') {
    return {
      ...base,
      provider: toClientCredentialsProvider(options, target.serverName),
      own: undefined,
      maxAttempts,
    };
  }
  const own = new McpOAuthProvider({
    serverUrl: base.serverUrl,
    serverName: target.serverName,
    displayUrl: target.displayUrl,
    options,
    store: options.tokenStore ?? new MemoryTokenStore(),
  });
  return { ...base, provider: own, own, maxAttempts };
}

function toClientCredentialsProvider(options: MCPAuthOptions, serverName: string): OAuthClientProvider {
  const scope = options.scopes?.length ? options.scopes.join(' ') : undefined;
  if (
    options.clientId === undefined ||
    (options.clientSecret === undefined) === (options.privateKey === undefined)
  ) {
    throw new ToolInputError(
      `'auth' of MCP server '${serverName}' uses grant 'client_credentials': give 'clientId' and exactly one of 'clientSecret' (client_secret_basic) or 'privateKey' (private_key_jwt).`,
    );
  }
  const clientName = options.clientName ?? 'protolink';
  if (options.clientSecret !== undefined) {
    return new ClientCredentialsProvider({
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      clientName,
      scope,
    });
  }
  return new PrivateKeyJwtProvider({
    clientId: options.clientId,
    privateKey: options.privateKey as string | Record<string, unknown>,
    algorithm: options.signingAlgorithm ?? 'RS256',
    clientName,
    scope,
  });
}

function checkOptions(options: MCPAuthOptions, serverName: string): MCPAuthOptions {
  const fail = (field: string, expected: string): never => {
    throw new ToolInputError(`'auth.${field}' of MCP server '${serverName}' must be ${expected}.`);
  };
  for (const field of [
    'clientId',
    'clientSecret',
    'clientMetadataUrl',
    'clientName',
    'redirectUrl',
    'signingAlgorithm',
  ] as const) {
    const value = options[field];
    if (value !== undefined && (typeof value !== 'string' || value === '')) fail(field, 'a non-empty string');
  }
  if (
    options.grant !== undefined &&
    options.grant !== 'authorization_code' &&
    options.grant !== 'client_credentials'
  ) {
    fail('grant', "'authorization_code' or 'client_credentials'");
  }
  if (
    options.scopes !== undefined &&
    (!Array.isArray(options.scopes) || options.scopes.some((scope) => typeof scope !== 'string'))
  ) {
    fail('scopes', 'an array of strings');
  }
  if (options.onAuthorizationUrl !== undefined && typeof options.onAuthorizationUrl !== 'function') {
    fail('onAuthorizationUrl', 'a function that resolves with the authorization code');
  }
  const store = options.tokenStore as Partial<Record<'load' | 'save' | 'delete', unknown>> | undefined;
  if (
    store !== undefined &&
    (typeof store !== 'object' ||
      store === null ||
      ['load', 'save', 'delete'].some((method) => typeof store[method as 'load'] !== 'function'))
  ) {
    fail('tokenStore', 'an MCPTokenStore (load, save, delete), e.g. new FileTokenStore({ directory })');
  }
  if (
    options.maxAttempts !== undefined &&
    (!Number.isInteger(options.maxAttempts) || options.maxAttempts < 1)
  ) {
    fail('maxAttempts', 'a positive integer');
  }
  if (options.clientMetadataUrl !== undefined && !/^https:\/\/[^/]+\/./.test(options.clientMetadataUrl)) {
    fail('clientMetadataUrl', 'an https URL with a path (the client metadata document, SEP-991)');
  }
  if (
    options.privateKey !== undefined &&
    typeof options.privateKey !== 'string' &&
    (typeof options.privateKey !== 'object' || options.privateKey === null)
  ) {
    fail('privateKey', 'a PEM string or a JWK object');
  }
  return options;
}
