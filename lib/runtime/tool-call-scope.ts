import { AsyncLocalStorage } from 'node:async_hooks';
import type { ToolCallChannel } from './tool-call-channel';

/** Channels attached to a context for its whole life (served calls: one context per call). */
const attached = new WeakMap<object, ToolCallChannel>();

/**
 * The channel of the tool call running in this async flow (in-process calls of an Agent that has
 * handlers or listeners). Created on first use, so a process that never needs it never pays for it.
 */
let callScope: AsyncLocalStorage<ToolCallChannel> | undefined;

/** Attaches a channel to a context: every tool call made with it (or its children) reports there. */
export function attachToolCallChannel(context: object, channel: ToolCallChannel): void {
  attached.set(context, channel);
}

/** Runs `work` with `channel` as the channel of the tool call running in this async flow. */
export function runInToolCallScope<T>(channel: ToolCallChannel, work: () => T): T {
  callScope ??= new AsyncLocalStorage<ToolCallChannel>();
  return callScope.run(channel, work);
}

/**
 * The channel a context's tool reports to: one attached to the context or one of its ancestors (served
 * calls) wins over the in-process call scope; undefined when neither exists.
 */
export function findToolCallChannel(
  context: object,
  parentOf: (context: object) => object | undefined,
): ToolCallChannel | undefined {
  for (let current: object | undefined = context; current; current = parentOf(current)) {
    const channel = attached.get(current);
    if (channel) return channel;
  }
  return callScope?.getStore();
}
