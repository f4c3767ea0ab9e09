import { ToolInputError } from '../../../errors/tool-input-error';
import { TOO_MANY_CALLS_ERROR_CODE } from '../served-tool-calls';
import { toWireMcpError } from './to-catalog-mcp-error';

/** Longest URI a session may subscribe to, in characters (the longest URI template is as long). */
export const MAX_SUBSCRIBED_URI_LENGTH = 4_096;

/** Default of the server option `maxSubscriptionsPerSession`: resources one session may watch at once. */
export const DEFAULT_MAX_SUBSCRIPTIONS_PER_SESSION = 1_000;

/**
 * Checks a `maxSubscriptionsPerSession` option (default {@link DEFAULT_MAX_SUBSCRIPTIONS_PER_SESSION}).
 *
 * @throws ToolInputError when it is not a whole number of at least 1.
 */
export function resolveMaxSubscriptions(option: number | undefined): number {
  if (option === undefined) return DEFAULT_MAX_SUBSCRIPTIONS_PER_SESSION;
  if (!Number.isSafeInteger(option) || option < 1)
    throw new ToolInputError(
      `maxSubscriptionsPerSession must be a whole number >= 1, got ${String(option)}; it bounds the resources one session may subscribe to at once.`,
    );
  return option;
}

/** The resource URIs one session (one server instance) is subscribed to, at most `limit` of them. */
export class ResourceSubscriptions {
  private readonly uris = new Set<string>();

  constructor(private readonly limit: number) {}

  /** Whether the session is subscribed to the URI. */
  has(uri: string): boolean {
    return this.uris.has(uri);
  }

  /**
   * Records a subscription (one already held is kept as it is).
   *
   * @throws McpError -32029 when the session already holds `limit` other subscriptions; -32602 for a URI
   *   longer than {@link MAX_SUBSCRIBED_URI_LENGTH}.
   */
  add(uri: string): void {
    this.assertRoomFor(uri);
    this.uris.add(uri);
  }

  /**
   * Checks that {@link add} would record the URI, before its read is authorized.
   *
   * @throws McpError -32029 when the session already holds `limit` other subscriptions; -32602 for a URI
   *   longer than {@link MAX_SUBSCRIBED_URI_LENGTH}.
   */
  assertRoomFor(uri: string): void {
    // A count alone would let 1,000 URIs of a megabyte each sit in one session.
    if (uri.length > MAX_SUBSCRIBED_URI_LENGTH)
      throw toWireMcpError(
        -32602,
        `Invalid params: a subscribed URI may have at most ${MAX_SUBSCRIBED_URI_LENGTH} characters; this one has ${uri.length}.`,
        { maxUriLength: MAX_SUBSCRIBED_URI_LENGTH },
      );
    if (this.uris.has(uri) || this.uris.size < this.limit) return;
    throw toWireMcpError(
      TOO_MANY_CALLS_ERROR_CODE,
      `This session is subscribed to ${this.limit} resources, the most this server keeps (maxSubscriptionsPerSession); unsubscribe from one (resources/unsubscribe) before subscribing to another.`,
      { maxSubscriptionsPerSession: this.limit },
    );
  }

  /** Removes a subscription; returns whether it was there. */
  delete(uri: string): boolean {
    return this.uris.delete(uri);
  }

  /** Removes every subscription (the session closed). */
  clear(): void {
    this.uris.clear();
  }
}
