/** The environment variable that carries a worker's configuration (JSON) from the primary. */
export const SERVE_WORKER_ENV = 'PROTOLINK_SERVE_WORKER';
/** Marks the cluster messages of `protolink serve` workers among any others. */
export const SERVE_WORKER_MESSAGE_TAG = 'protolink-serve-worker';

/** What a worker of `protolink serve --workers <n>` tells its primary over the cluster channel. */
export type ServeWorkerMessage =
  | {
      /** It listens and serves. */
      kind: 'listening';
      slot: number;
      mcpUrl: string;
      cardUrl: string;
      tools: number;
      agentName: string;
    }
  | {
      /** It could not start (a module that does not load, a Redis that cannot be reached…) and exits. */
      kind: 'failed';
      slot: number;
      name: string;
      message: string;
    };

/** Whether a cluster message is one of a serve worker's (then it is returned without its tag). */
export function toServeWorkerMessage(value: unknown): ServeWorkerMessage | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { tag, ...message } = value as { tag?: unknown; kind?: unknown };
  if (tag !== SERVE_WORKER_MESSAGE_TAG) return undefined;
  return message.kind === 'listening' || message.kind === 'failed'
    ? (message as ServeWorkerMessage)
    : undefined;
}
