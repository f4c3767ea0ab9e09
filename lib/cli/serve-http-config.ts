import type { AgentServerOptions } from '../agents/agent-server-options';
import { redactRedisUrl } from '../server/resolve-redis-option';

/** How `protolink serve` serves over HTTP: what one process (or each worker) passes to `startAgentServer`. */
export interface ServeHttpConfig {
  /** The module to serve (a path as given, resolved by `loadToolModule`). */
  readonly modulePath: string;
  /** `--http <url>`: where to listen. */
  readonly http?: string;
  readonly stateless: boolean;
  readonly allowNonLoopback: boolean;
  /** The bearer token, resolved from `--token`, `--token-file` or `PROTOLINK_TOKEN`. */
  readonly token?: string;
  /** The Redis URL from `--redis` or `PROTOLINK_REDIS_URL`. */
  readonly redis?: string;
  readonly redisKeyPrefix?: string;
  readonly publicUrl?: string;
}

/** The `startAgentServer` options of a `protolink serve`. */
export function toAgentServerOptions(
  config: ServeHttpConfig,
  onError: (error: unknown) => void,
): AgentServerOptions {
  return {
    url: config.http,
    token: config.token,
    sessionMode: config.stateless ? 'stateless' : 'stateful',
    allowNonLoopback: config.allowNonLoopback,
    redis: config.redis,
    redisKeyPrefix: config.redisKeyPrefix,
    publicUrl: config.publicUrl,
    onError,
  };
}

/** The lines `protolink serve` prints once it serves, after the first ("Serving … at …"). */
export function describeSharing(config: ServeHttpConfig, workers: number): string[] {
  const lines: string[] = [];
  if (config.redis) {
    lines.push(
      `Sessions are shared through Redis at ${redactRedisUrl(config.redis)} (key prefix '${config.redisKeyPrefix ?? 'protolink:'}').`,
    );
  }
  if (config.publicUrl)
    lines.push(`Clients reach it at ${config.publicUrl} (its Host and Origin are accepted).`);
  if (workers > 1) lines.push(`${workers} worker processes share the port.`);
  return lines;
}
