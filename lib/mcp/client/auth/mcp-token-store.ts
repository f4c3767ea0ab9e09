import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

/**
 * What is kept of one server's sign-in: the tokens, the client registration (dynamic or metadata-document
 * client id) and when the tokens were saved (to refresh before they expire). Secret: never logged.
 */
export interface MCPStoredAuth {
  /** The tokens as the authorization server issued them (`access_token`, `refresh_token`, `expires_in`…). */
  tokens?: OAuthTokens;
  /** Epoch ms when `tokens` were saved; with `expires_in` it tells when they expire. */
  savedAt?: number;
  /** The client registration the tokens belong to. */
  clientInformation?: OAuthClientInformationMixed;
}

/**
 * Where an MCP adapter keeps sign-in state, one entry per server (the key is the server URL). Implement it
 * over a keychain or a secrets manager; {@link MemoryTokenStore} and {@link FileTokenStore} are built in.
 */
export interface MCPTokenStore {
  /** The stored state of a server, or `undefined`. */
  load(serverUrl: string): MCPStoredAuth | undefined | Promise<MCPStoredAuth | undefined>;
  /** Replaces the stored state of a server. */
  save(serverUrl: string, data: MCPStoredAuth): void | Promise<void>;
  /** Forgets a server (sign-out); returns whether something was stored. */
  delete(serverUrl: string): boolean | Promise<boolean>;
}
