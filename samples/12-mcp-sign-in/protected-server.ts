// Sample 12 (server): a small MCP server that needs sign-in, built on the MCP SDK's own pieces: its OAuth
// authorization server router (`mcpAuthRouter`: metadata, dynamic registration, authorize, token with PKCE and
// refresh) and its bearer-token middleware (`requireBearerAuth`) in front of a streamable HTTP endpoint. The
// authorization endpoint approves at once (no login page), so the whole flow runs offline on 127.0.0.1.
// `admin_action` needs the extra scope `admin`, so calling it makes the client step up.
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import { InvalidGrantError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import type {
  AuthorizationParams,
  OAuthServerProvider,
} from '@modelcontextprotocol/sdk/server/auth/provider.js';
import {
  getOAuthProtectedResourceMetadataUrl,
  mcpAuthRouter,
} from '@modelcontextprotocol/sdk/server/auth/router.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { OAuthClientInformationFull, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

/** Options of {@link startProtectedMcpServer}. */
export interface ProtectedServerOptions {
  /** Lifetime of access tokens in seconds (default 3600). */
  accessTokenSeconds?: number;
  /** Scopes the authorization server never grants (to show a step-up that cannot succeed). */
  neverGrant?: string[];
}

/** A running protected server and what it saw (for the sample's output and for tests). */
export interface ProtectedServer {
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  /** Scopes asked for by each authorization request, in order. */
  readonly authorizations: string[][];
  /** How many refresh-token grants were served. */
  readonly refreshes: () => number;
  /** Every access token, refresh token and authorization code issued (to search outputs for leaks). */
  readonly secrets: () => string[];
  /** Makes every access token issued so far invalid, as if it had expired. */
  expireAccessTokens(): void;
  close(): Promise<void>;
}

interface Grant {
  clientId: string;
  scopes: string[];
  challenge: string;
  redirectUri: string;
}

/** The few parts of express used here (express ships with the MCP SDK, without type declarations). */
interface HttpRequest {
  body?: unknown;
}
interface HttpResponse {
  status(code: number): { end(): void };
  on(event: 'close', listener: () => void): void;
  redirect(status: number, url: string): void;
}
type Handler = (request: HttpRequest, response: HttpResponse, next: () => void) => unknown;
interface ExpressApp {
  use(handler: unknown): void;
  post(path: string, ...handlers: unknown[]): void;
  get(path: string, handler: Handler): void;
  delete(path: string, handler: Handler): void;
  listen(port: number, host: string, ready: () => void): Server;
}
const express = require('express') as (() => ExpressApp) & { json(): unknown };

const token = (prefix: string) => `${prefix}_${randomBytes(18).toString('base64url')}`;

/** Starts the protected MCP server and its authorization server on 127.0.0.1 (a random port). */
export async function startProtectedMcpServer(
  options: ProtectedServerOptions = {},
): Promise<ProtectedServer> {
  const clients = new Map<string, OAuthClientInformationFull>();
  const codes = new Map<string, Grant>();
  const accessTokens = new Map<string, AuthInfo>();
  const refreshTokens = new Map<string, { clientId: string; scopes: string[] }>();
  const issued: string[] = [];
  const authorizations: string[][] = [];
  let refreshes = 0;
  const lifetime = options.accessTokenSeconds ?? 3600;

  const issue = (clientId: string, scopes: string[]): OAuthTokens => {
    const access = token('at');
    const refresh = token('rt');
    issued.push(access, refresh);
    accessTokens.set(access, {
      token: access,
      clientId,
      scopes,
      expiresAt: Math.floor(Date.now() / 1000) + lifetime,
    });
    refreshTokens.set(refresh, { clientId, scopes });
    return {
      access_token: access,
      token_type: 'Bearer',
      expires_in: lifetime,
      refresh_token: refresh,
      scope: scopes.join(' '),
    };
  };

  const clientsStore: OAuthRegisteredClientsStore = {
    getClient: (clientId) => clients.get(clientId),
    registerClient: (client) => {
      const full = {
        ...client,
        client_id: token('client'),
        client_id_issued_at: Math.floor(Date.now() / 1000),
      };
      clients.set(full.client_id, full);
      return full;
    },
  };

  const provider: OAuthServerProvider = {
    get clientsStore() {
      return clientsStore;
    },
    async authorize(client, params: AuthorizationParams, res) {
      const redirect = res as unknown as HttpResponse;
      const scopes = (params.scopes ?? []).filter((scope) => !(options.neverGrant ?? []).includes(scope));
      authorizations.push(params.scopes ?? []);
      const code = token('code');
      issued.push(code);
      codes.set(code, {
        clientId: client.client_id,
        scopes,
        challenge: params.codeChallenge,
        redirectUri: params.redirectUri,
      });
      const target = new URL(params.redirectUri);
      target.searchParams.set('code', code);
      if (params.state !== undefined) target.searchParams.set('state', params.state);
      redirect.redirect(302, target.href);
    },
    async challengeForAuthorizationCode(_client, code) {
      const grant = codes.get(code);
      if (!grant) throw new InvalidGrantError('Unknown authorization code');
      return grant.challenge;
    },
    async exchangeAuthorizationCode(client, code) {
      const grant = codes.get(code);
      if (!grant || grant.clientId !== client.client_id)
        throw new InvalidGrantError('Unknown authorization code');
      codes.delete(code);
      return issue(client.client_id, grant.scopes);
    },
    async exchangeRefreshToken(client, refreshToken) {
      const known = refreshTokens.get(refreshToken);
      if (!known || known.clientId !== client.client_id) throw new InvalidGrantError('Unknown refresh token');
      refreshTokens.delete(refreshToken);
      refreshes += 1;
      return issue(client.client_id, known.scopes);
    },
    async verifyAccessToken(value) {
      const info = accessTokens.get(value);
      if (!info) throw new InvalidTokenError('Unknown or expired access token');
      return info;
    },
  };

  const app = express();
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const base = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  const mcpUrl = new URL('/mcp', base);
  app.use(
    mcpAuthRouter({
      provider,
      issuerUrl: base,
      resourceServerUrl: mcpUrl,
      scopesSupported: ['mcp', 'admin'],
    }),
  );
  const resourceMetadataUrl = getOAuthProtectedResourceMetadataUrl(mcpUrl);
  const signedIn = requireBearerAuth({ verifier: provider, requiredScopes: ['mcp'], resourceMetadataUrl });
  const admin = requireBearerAuth({
    verifier: provider,
    requiredScopes: ['mcp', 'admin'],
    resourceMetadataUrl,
  });
  const guard: Handler = (request, response, next) => {
    const body = request.body as { method?: string; params?: { name?: string } } | undefined;
    const needsAdmin = body?.method === 'tools/call' && body.params?.name === 'admin_action';
    return (needsAdmin ? admin : signedIn)(request as never, response as never, next);
  };
  app.post('/mcp', express.json(), guard, async (request: HttpRequest, response: HttpResponse) => {
    const mcp = new McpServer({ name: 'protected-sample', version: '1.0.0' });
    mcp.registerTool('whoami', { description: 'Says which scopes the caller signed in with' }, (extra) => ({
      content: [
        { type: 'text', text: `signed in with scopes: ${extra.authInfo?.scopes.join(' ') ?? 'none'}` },
      ],
    }));
    mcp.registerTool('admin_action', { description: 'Needs the admin scope' }, () => ({
      content: [{ type: 'text' as const, text: 'admin action done' }],
    }));
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    response.on('close', () => void transport.close());
    await mcp.connect(transport);
    await transport.handleRequest(request as never, response as never, request.body);
  });
  for (const method of ['get', 'delete'] as const) {
    app[method]('/mcp', (_request, response) => response.status(405).end());
  }

  return {
    url: mcpUrl.href,
    authorizations,
    refreshes: () => refreshes,
    secrets: () => [...issued],
    expireAccessTokens: () => accessTokens.clear(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
