import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { MCPTokenStore } from './mcp-token-store';

/**
 * Sign-in to a protected MCP server (the `auth` option of `MCPToolAdapter`, `http` and `sse` transports),
 * run by the MCP SDK's OAuth 2.1 client: protected-resource and authorization-server discovery, PKCE,
 * client ID metadata documents or dynamic registration, scope step-up and refresh.
 *
 * With a person present (`grant: 'authorization_code'`, the default) `onAuthorizationUrl` shows the URL and
 * returns the code the redirect brought back (`protolink mcp login` does this with a loopback listener).
 * With nobody present (`grant: 'client_credentials'`) `clientId` with `clientSecret` (client_secret_basic)
 * or `privateKey` (private_key_jwt) get tokens directly.
 */
export interface MCPAuthOptions {
  /** `authorization_code` (default: a user signs in) or `client_credentials` (machine to machine). */
  grant?: 'authorization_code' | 'client_credentials';
  /** A client id registered with the authorization server (else a metadata document or registration). */
  clientId?: string;
  /** The secret of `clientId` (never logged, never in errors or metadata). */
  clientSecret?: string;
  /** An https URL of this client's metadata document, used as client id where the server supports it. */
  clientMetadataUrl?: string;
  /** The client name sent with dynamic registration (default `protolink`). */
  clientName?: string;
  /** Scopes to ask for when the server does not say which it needs. */
  scopes?: readonly string[];
  /** The redirect URI registered for the authorization code (default `http://127.0.0.1/callback`). */
  redirectUrl?: string;
  /** Where tokens and the client registration are kept (default: a {@link MemoryTokenStore} per adapter). */
  tokenStore?: MCPTokenStore;
  /**
   * Shows the authorization URL to the user and resolves with the `code` of the redirect. Without it, a
   * server that needs sign-in fails the call with a ToolRuntimeError saying how to sign in.
   */
  onAuthorizationUrl?: (authorizationUrl: URL) => string | Promise<string>;
  /** `client_credentials` with private_key_jwt: the PEM private key (or a JWK) that signs the assertion. */
  privateKey?: string | Record<string, unknown>;
  /** The JWS algorithm of `privateKey` (default `RS256`; e.g. `ES256`). */
  signingAlgorithm?: string;
  /** Most sign-in rounds for one request (a server that keeps refusing fails after them; default 3). */
  maxAttempts?: number;
}

/** The `auth` option: our options, or the MCP SDK's `OAuthClientProvider` used as is. */
export type MCPAuth = MCPAuthOptions | OAuthClientProvider;
