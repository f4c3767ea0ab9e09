import { SessionStoreDataError } from '../errors/session-store-data-error';
import type { CallLeases, StreamOwner } from '../state/call-leases';
import type { SessionKey } from '../state/session-key';
import type { RedisCommands } from './redis-commands';
import {
  assertStorableSessionKey,
  isStorableSessionKey,
  isStorableStreamId,
  toSessionKeys,
} from './redis-keys';

/** Instance ids are the 12 hex digits the endpoint makes. */
const INSTANCE_ID = /^[0-9a-f]{12}$/;

/** Options of {@link RedisCallLeases}. */
export interface RedisCallLeasesOptions {
  commands: RedisCommands;
  /** Prefix of every key (default `protolink:`). */
  keyPrefix?: string;
}

/**
 * Call leases on Redis: a process's heartbeat is `<prefix>alive:<instance>` (SET with PX), a stream's owner
 * `<prefix>owner:<subject>:{<session>}:<streamId>` (a JSON string with PX), both gone when their time runs out.
 */
export class RedisCallLeases implements CallLeases {
  private readonly commands: RedisCommands;
  private readonly keyPrefix: string;

  constructor(options: RedisCallLeasesOptions) {
    this.commands = options.commands;
    this.keyPrefix = options.keyPrefix ?? 'protolink:';
  }

  async heartbeat(instanceId: string, ttlMs: number): Promise<void> {
    assertInstanceId(instanceId);
    await this.commands.send(['SET', `${this.keyPrefix}alive:${instanceId}`, '1', 'PX', String(ttlMs)]);
  }

  async isAlive(instanceId: string): Promise<boolean> {
    if (!INSTANCE_ID.test(instanceId)) return false;
    return (await this.commands.send(['EXISTS', `${this.keyPrefix}alive:${instanceId}`])) === 1;
  }

  async claimStream(key: SessionKey, streamId: string, owner: StreamOwner, ttlMs: number): Promise<void> {
    assertStorableSessionKey(key);
    assertInstanceId(owner.instanceId);
    if (!isStorableStreamId(streamId)) return;
    const value = JSON.stringify({ instanceId: owner.instanceId, requestIds: owner.requestIds });
    await this.commands.send(
      ['SET', this.ownerKey(key, streamId), value, 'PX', String(ttlMs)],
      key.sessionId,
    );
  }

  async streamOwner(key: SessionKey, streamId: string): Promise<StreamOwner | undefined> {
    if (!isStorableSessionKey(key) || !isStorableStreamId(streamId)) return undefined;
    const raw = await this.commands.send(['GET', this.ownerKey(key, streamId)], key.sessionId);
    if (raw === null || raw === undefined) return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(String(raw));
    } catch {
      parsed = undefined;
    }
    const owner = parsed as { instanceId?: unknown; requestIds?: unknown } | undefined;
    if (
      !owner ||
      typeof owner.instanceId !== 'string' ||
      !INSTANCE_ID.test(owner.instanceId) ||
      !Array.isArray(owner.requestIds) ||
      !owner.requestIds.every((id) => typeof id === 'string' || typeof id === 'number')
    ) {
      throw new SessionStoreDataError({ sessionId: key.sessionId, reason: 'a stream owner that is not one' });
    }
    return { instanceId: owner.instanceId, requestIds: owner.requestIds as (string | number)[] };
  }

  async releaseStream(key: SessionKey, streamId: string): Promise<void> {
    if (!isStorableSessionKey(key) || !isStorableStreamId(streamId)) return;
    await this.commands.send(['DEL', this.ownerKey(key, streamId)], key.sessionId);
  }

  private ownerKey(key: SessionKey, streamId: string): string {
    const { session } = toSessionKeys(this.keyPrefix, key);
    return `${session.replace(`${this.keyPrefix}session:`, `${this.keyPrefix}owner:`)}:${streamId}`;
  }
}

function assertInstanceId(instanceId: string): void {
  if (!INSTANCE_ID.test(instanceId)) {
    throw new SessionStoreDataError({
      sessionId: '-',
      reason: `an instance id that is not 12 hex digits ('${String(instanceId).slice(0, 40)}')`,
    });
  }
}
