/// <reference types="node" preserve="true" />
// Entry point `protolink/redis`: the session seams of `protolink/server` on Redis. The optional peer `redis`
// is checked before anything loads it; `protolink` and `protolink/server` never load this entry.
import './assert-redis-installed';

export {
  createRedisBackend,
  DEFAULT_REDIS_KEY_PREFIX,
  DEFAULT_REDIS_COMMAND_TIMEOUT_MS,
} from './create-redis-backend';
export type { CreateRedisBackendOptions, RedisBackend } from './create-redis-backend';
export { RedisSessionStore } from './redis-session-store';
export type { RedisSessionStoreOptions } from './redis-session-store';
export { RedisEventLog } from './redis-event-log';
export type { RedisEventLogOptions } from './redis-event-log';
export {
  RedisSessionBus,
  DEFAULT_BUS_MAX_ENTRIES,
  DEFAULT_BUS_POLL_INTERVAL_MS,
  DEFAULT_BUS_RETENTION_MS,
} from './redis-session-bus';
export type { RedisSessionBusOptions } from './redis-session-bus';
export { RedisTaskStore } from './redis-task-store';
export type { RedisTaskStoreOptions } from './redis-task-store';
export { RedisCommands } from './redis-commands';
export type { RedisClientLike } from '../state/redis-client-like';
export { SessionStoreUnavailableError } from '../errors/session-store-unavailable-error';
export { SessionStoreDataError } from '../errors/session-store-data-error';
export { TooManyTasksError } from '../errors/too-many-tasks-error';
export { TaskResultTooLargeError } from '../errors/task-result-too-large-error';
export type { TaskStoreLimits } from '../tasks/task-store-limits';
export { SessionLimitError } from '../errors/session-limit-error';
export { SessionBusMessageTooLargeError } from '../errors/session-bus-message-too-large-error';
