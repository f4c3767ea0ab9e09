import type { AgentServerOptions } from './agent-server-options';

/**
 * The options that every way of serving an agent takes (`startAgentServer`, `agent.start`, a mounted
 * `createAgentRequestHandler`, the Nest module's `serve`), by concern: the one table their option checks are
 * built from.
 */
export const SERVE_OPTION_GROUPS = Object.freeze({
  auth: ['token'],
  sessions: [
    'sessionMode',
    'sessionIdleTimeoutMs',
    'maxSessions',
    'maxSessionsPerClient',
    'redis',
    'redisKeyPrefix',
  ],
  limits: [
    'maxBodyBytes',
    'maxConcurrentCallsPerSession',
    'maxConcurrentStatelessCalls',
    'maxGetStreamsPerSession',
    'maxSubscriptionsPerSession',
    'interactionTimeoutMs',
  ],
  eventStore: [
    'eventStore',
    'sseRetryMs',
    'maxEventStoreBytesPerSession',
    'maxEventStoreBytes',
    'eventStoreResumeWindowMs',
  ],
  tasks: ['taskStore', 'maxTaskTtlMs', 'taskStoreLimits', 'taskPollIntervalMs'],
  protocol: ['publicUrl', 'allowedHosts', 'allowedOrigins', 'enableJsonResponse'],
  hooks: ['buildContext', 'onError'],
} as const satisfies Record<string, readonly (keyof AgentServerOptions)[]>);

/** The options only a server that listens has (where, on which interface, the connection limits). */
export const LISTENING_SERVER_OPTION_NAMES = Object.freeze([
  'url',
  'allowNonLoopback',
  'headersTimeoutMs',
  'requestTimeoutMs',
  'keepAliveTimeoutMs',
  'maxConnections',
] as const satisfies readonly (keyof AgentServerOptions)[]);

/** An option every way of serving takes. */
export type SharedServeOption = (typeof SERVE_OPTION_GROUPS)[keyof typeof SERVE_OPTION_GROUPS][number];

/** An option only a listening server takes. */
export type ListeningServerOption = (typeof LISTENING_SERVER_OPTION_NAMES)[number];

/** The flags `defineKnownOptions` takes, for every name of the lists given. */
export function toOptionFlags<const Name extends string>(
  ...lists: readonly (readonly Name[])[]
): {
  readonly [K in Name]: true;
} {
  const flags: Partial<Record<Name, true>> = {};
  for (const list of lists) for (const name of list) flags[name] = true;
  return flags as { readonly [K in Name]: true };
}

/** Every option every way of serving takes (the groups of {@link SERVE_OPTION_GROUPS}, flattened). */
export const SHARED_SERVE_OPTION_FLAGS = toOptionFlags<SharedServeOption>(
  ...Object.values(SERVE_OPTION_GROUPS),
);
