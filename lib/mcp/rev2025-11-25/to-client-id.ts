import { createHash } from 'node:crypto';

/**
 * The id a shared session store counts a client's sessions by (`maxSessionsPerClient`): a hash of its
 * address, so no address is written to the store.
 */
export function toClientId(address: string): string {
  return createHash('sha256').update(address).digest('base64url').slice(0, 22);
}
