import { lazyRequire } from './lazy-require';

// node:crypto takes longer to load than most of `protolink`: it loads with the first id, not on import.
const loadCrypto = lazyRequire((): typeof import('node:crypto') => require('node:crypto'));

/** Returns a random RFC 4122 version 4 UUID (node:crypto's `randomUUID`). */
export function randomUUID(): string {
  return loadCrypto().randomUUID();
}
