import { randomBytes } from 'node:crypto';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { MCPSignInRequiredError } from '../../../errors/mcp-sign-in-required-error';
import type { MCPAuthOptions } from './mcp-auth-options';
import type { MCPStoredAuth, MCPTokenStore } from './mcp-token-store';

/** The redirect URI used when `auth.redirectUrl` is not given. */
export const DEFAULT_REDIRECT_URL = 'http://127.0.0.1/callback';

/** Seconds before `expires_in` runs out at which tokens count as expired (clock skew, slow networks). */
const EXPIRY_MARGIN_SECONDS = 30;

/** What {@link McpOAuthProvider} needs besides the user's options. */
export interface McpOAuthProviderSettings {
  /** The MCP server URL (the store key). */
  readonly serverUrl: string;
  /** The server's label, for messages. */
  readonly serverName: string;
  /** The redacted server URL, for messages. */
  readonly displayUrl: string;
  readonly options: MCPAuthOptions;
  readonly store: MCPTokenStore;
}

/**
 * The `OAuthClientProvider` the MCP SDK's `auth()` flow runs on for {@link MCPAuthOptions}: tokens and the
 * client registration live in the token store; the authorization URL goes to `onAuthorizationUrl`, whose
 * code is kept until the session exchanges it (`transport.finishAuth`). During a scope step-up the refresh
 * token is hidden from the SDK so it asks the user for the larger scope instead of refreshing the old one.
 */
export class McpOAuthProvider implements OAuthClientProvider {
  private verifier: string | undefined;
  private pendingCode: string | undefined;
  private steppingUp = false;

  constructor(private readonly settings: McpOAuthProviderSettings) {}

  /** The redirect URI of the authorization code flow. */
  get redirectUrl(): string {
    return this.settings.options.redirectUrl ?? DEFAULT_REDIRECT_URL;
  }

  /** The client metadata document URL, when one was given (SEP-991). */
  get clientMetadataUrl(): string | undefined {
    return this.settings.options.clientMetadataUrl;
  }

  /** The metadata sent with dynamic client registration. */
  get clientMetadata(): OAuthClientMetadata {
    const { options } = this.settings;
    const metadata: OAuthClientMetadata = {
      client_name: options.clientName ?? 'protolink',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    };
    if (options.scopes?.length) metadata.scope = options.scopes.join(' ');
    return metadata;
  }

  /** A fresh random `state` for each authorization request (checked by the redirect listener). */
  state(): string {
    return randomBytes(24).toString('base64url');
  }

  /** The pre-registered client (`clientId`, `clientSecret`) or the stored registration. */
  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const { clientId, clientSecret } = this.settings.options;
    if (clientId !== undefined) {
      return clientSecret === undefined
        ? { client_id: clientId }
        : { client_id: clientId, client_secret: clientSecret };
    }
    return (await this.load()).clientInformation;
  }

  /** Keeps a registration (dynamic or metadata-document client id); a pre-registered one is not stored. */
  async saveClientInformation(clientInformation: OAuthClientInformationMixed): Promise<void> {
    if (this.settings.options.clientId !== undefined) return;
    await this.update((stored) => ({ ...stored, clientInformation }));
  }

  /** The stored tokens (without the refresh token while a step-up needs the user). */
  async tokens(): Promise<OAuthTokens | undefined> {
    const { tokens } = await this.load();
    if (!tokens || !this.steppingUp) return tokens;
    const { refresh_token: _hidden, ...rest } = tokens;
    return rest;
  }

  /** Keeps new tokens with the time they were saved; a step-up in progress is over. */
  async saveTokens(tokens: OAuthTokens): Promise<void> {
    this.steppingUp = false;
    await this.update((stored) => ({
      ...stored,
      tokens:
        tokens.refresh_token || !stored.tokens?.refresh_token
          ? tokens
          : { ...tokens, refresh_token: stored.tokens.refresh_token },
      savedAt: Date.now(),
    }));
  }

  /**
   * Hands the authorization URL to `onAuthorizationUrl` and keeps the code it returns.
   *
   * @throws MCPSignInRequiredError when there is no `onAuthorizationUrl`, or it gave no code.
   */
  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const { onAuthorizationUrl } = this.settings.options;
    if (typeof onAuthorizationUrl !== 'function') throw this.signInRequired();
    let code: unknown;
    try {
      code = await onAuthorizationUrl(new URL(authorizationUrl.href));
    } catch (error) {
      throw new MCPSignInRequiredError(
        `Sign-in to MCP server '${this.settings.serverName}' (${this.settings.displayUrl}) did not finish: auth.onAuthorizationUrl failed (${error instanceof Error ? error.message : String(error)}). Try again, or run \`protolink mcp login --url ${this.settings.displayUrl}\`.`,
        { cause: error, provider: this.settings.serverName, serverUrl: this.settings.displayUrl },
      );
    }
    if (typeof code !== 'string' || code === '') {
      throw new MCPSignInRequiredError(
        `Sign-in to MCP server '${this.settings.serverName}' (${this.settings.displayUrl}) did not finish: auth.onAuthorizationUrl must resolve with the authorization code from the redirect, got ${code === '' ? 'an empty string' : typeof code}.`,
        { provider: this.settings.serverName, serverUrl: this.settings.displayUrl },
      );
    }
    this.pendingCode = code;
  }

  /** Keeps the PKCE verifier of the authorization in progress. */
  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  /** The PKCE verifier of the authorization in progress. */
  codeVerifier(): string {
    if (this.verifier === undefined) throw this.signInRequired();
    return this.verifier;
  }

  /** Forgets what the server rejected (tokens, the registration, or both). */
  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'verifier' || scope === 'all') this.verifier = undefined;
    if (scope === 'discovery' || scope === 'verifier') return;
    await this.update((stored) => {
      const next = { ...stored };
      if (scope === 'all' || scope === 'tokens') {
        delete next.tokens;
        delete next.savedAt;
      }
      if (scope === 'all' || scope === 'client') delete next.clientInformation;
      return next;
    });
  }

  /** The code `onAuthorizationUrl` returned and nobody has exchanged yet (taken once). */
  takePendingCode(): string | undefined {
    const code = this.pendingCode;
    this.pendingCode = undefined;
    return code;
  }

  /** The server asked for a larger scope: the next sign-in goes to the user, not to a refresh. */
  startStepUp(): void {
    this.steppingUp = true;
  }

  /** Whether stored tokens have run out (or will within a few seconds) and a refresh token can renew them. */
  async needsRefresh(now = Date.now()): Promise<boolean> {
    const { tokens, savedAt } = await this.load();
    if (!tokens?.refresh_token || tokens.expires_in === undefined || savedAt === undefined) return false;
    return savedAt + (tokens.expires_in - EXPIRY_MARGIN_SECONDS) * 1000 <= now;
  }

  /** The error of a sign-in that cannot happen here. */
  signInRequired(cause?: unknown): MCPSignInRequiredError {
    const { serverName, displayUrl } = this.settings;
    return new MCPSignInRequiredError(
      `MCP server '${serverName}' (${displayUrl}) needs you to sign in, and this adapter has no way to get an authorization code. Run \`protolink mcp login --url ${displayUrl}\` (it keeps the tokens in a FileTokenStore you pass as auth.tokenStore), or give auth.onAuthorizationUrl to sign in from code.`,
      { cause, provider: serverName, serverUrl: displayUrl },
    );
  }

  /** Keeps the provider's secrets out of `console.log`. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `McpOAuthProvider { server: ${this.settings.serverName} }`;
  }

  private async load(): Promise<MCPStoredAuth> {
    return (await this.settings.store.load(this.settings.serverUrl)) ?? {};
  }

  private async update(change: (stored: MCPStoredAuth) => MCPStoredAuth): Promise<void> {
    await this.settings.store.save(this.settings.serverUrl, change(await this.load()));
  }
}
