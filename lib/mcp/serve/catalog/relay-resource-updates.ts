import { randomBytes } from 'node:crypto';
import type { SessionBus, SessionBusSubscription } from '../../../state/session-bus';
import type { SessionKey } from '../../../state/session-key';
import { servedCatalogOf } from './servable-catalog';

/**
 * The bus channel of resource updates: not a session (session ids are UUIDs, this one cannot be), so no
 * client request can name it.
 */
const RESOURCE_UPDATES_CHANNEL: SessionKey = Object.freeze({
  sessionId: 'protolink:catalog:resource-updates',
});

/** A running relay; `stop` ends it (twice is harmless). */
export interface ResourceUpdatesRelay {
  stop(): Promise<void>;
}

/**
 * Relays `notifyResourceUpdated` between the processes that serve one agent through a shared bus: a URI
 * notified in any process is notified in every other, so a session subscribed in one process hears of a
 * change the application reported in another (the notification then travels through the session's shared
 * event log to its GET stream, wherever that is held). Does nothing for an agent without resources.
 */
export function relayResourceUpdates(
  agent: object,
  bus: SessionBus,
  onError: ((error: unknown) => void) | undefined,
): ResourceUpdatesRelay {
  const served = servedCatalogOf(agent);
  if (!served || !served.catalog.hasResources) return { stop: async () => undefined };
  const { catalog } = served;
  const self = randomBytes(6).toString('hex');
  let relaying = false;
  const stopListening = catalog.onResourceUpdated((uri) => {
    // An update that came from another process is not sent back to the bus.
    if (relaying) return;
    bus.publish(RESOURCE_UPDATES_CHANNEL, { from: self, uri }).catch((error: unknown) => onError?.(error));
  });
  const subscription: Promise<SessionBusSubscription | undefined> = bus
    .subscribe(
      RESOURCE_UPDATES_CHANNEL,
      (message) => {
        if (message.from === self || typeof message.uri !== 'string' || message.uri === '') return;
        relaying = true;
        try {
          catalog.notifyResourceUpdated(message.uri);
        } finally {
          relaying = false;
        }
      },
      { onError },
    )
    .catch((error: unknown) => {
      onError?.(error);
      return undefined;
    });
  let stopped: Promise<void> | undefined;
  return {
    stop: () =>
      (stopped ??= (async () => {
        stopListening();
        await (await subscription)?.unsubscribe();
      })()),
  };
}
