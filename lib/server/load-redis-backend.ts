import { assertOptionalPeers } from '../peers/assert-optional-peers';
import type { CreateRedisBackendOptions, RedisBackend } from '../redis/create-redis-backend';

/** Connects to Redis and returns the shared session state on it (`createRedisBackend` of `protolink/redis`). */
export type ConnectRedisBackend = (options: CreateRedisBackendOptions) => Promise<RedisBackend>;

/**
 * Loads `createRedisBackend` when a server is given the `redis` option, and only then: `protolink` and
 * `protolink/server` never load `redis` on their own. The `require` is a literal so bundlers see it.
 *
 * @throws ToolInputError naming the package to install when the optional peer `redis` is missing.
 */
export function loadRedisBackend(): ConnectRedisBackend {
  assertOptionalPeers({ entry: "The server option 'redis' (protolink/redis)", peers: ['redis'] });
  const loaded = require('../redis/create-redis-backend') as { createRedisBackend: ConnectRedisBackend };
  return loaded.createRedisBackend;
}
