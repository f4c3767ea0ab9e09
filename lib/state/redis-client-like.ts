/**
 * The part of a node-redis client (`createClient()` from `redis`, v5 or later) this entry uses: raw commands,
 * a duplicate for the subscriber connection, pub/sub and its 'ready' event. Any client with these methods will do.
 */
export interface RedisClientLike {
  /** Whether the client was connected (and not closed); it may be reconnecting. */
  readonly isOpen: boolean;
  /** Whether the connection is up now. */
  readonly isReady: boolean;
  connect(): Promise<unknown>;
  sendCommand(args: string[]): Promise<unknown>;
  duplicate(): RedisClientLike;
  subscribe(channel: string, listener: (message: string, channel: string) => void): Promise<unknown>;
  unsubscribe(channel: string, listener?: (message: string, channel: string) => void): Promise<unknown>;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  /** 'ready': connected again (node-redis subscribes a subscriber connection again before saying so). */
  on(event: 'ready', listener: () => void): unknown;
  off?(event: 'ready', listener: () => void): unknown;
  close?(): Promise<unknown>;
  quit?(): Promise<unknown>;
  destroy?(): unknown;
}
