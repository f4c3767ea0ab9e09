import type { CallLeases, StreamOwner } from '../call-leases';
import type { SessionKey } from '../session-key';

/** The call leases of processes sharing one memory (tests, or several endpoints in one process). */
export class InMemoryCallLeases implements CallLeases {
  private readonly alive = new Map<string, number>();
  private readonly owners = new Map<string, { owner: StreamOwner; expiresAt: number }>();

  async heartbeat(instanceId: string, ttlMs: number): Promise<void> {
    this.alive.set(instanceId, Date.now() + ttlMs);
  }

  async isAlive(instanceId: string): Promise<boolean> {
    const until = this.alive.get(instanceId);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    this.alive.delete(instanceId);
    return false;
  }

  async claimStream(key: SessionKey, streamId: string, owner: StreamOwner, ttlMs: number): Promise<void> {
    this.sweep();
    this.owners.set(toMapKey(key, streamId), {
      owner: { instanceId: owner.instanceId, requestIds: [...owner.requestIds] },
      expiresAt: Date.now() + ttlMs,
    });
  }

  async streamOwner(key: SessionKey, streamId: string): Promise<StreamOwner | undefined> {
    const entry = this.owners.get(toMapKey(key, streamId));
    return entry && entry.expiresAt > Date.now() ? entry.owner : undefined;
  }

  async releaseStream(key: SessionKey, streamId: string): Promise<void> {
    this.owners.delete(toMapKey(key, streamId));
  }

  private sweep(): void {
    const now = Date.now();
    for (const [id, entry] of this.owners) if (entry.expiresAt <= now) this.owners.delete(id);
  }
}

function toMapKey(key: SessionKey, streamId: string): string {
  return `${key.tokenSubject ?? ''}\n${key.sessionId}\n${streamId}`;
}
