import { createHash } from 'node:crypto';

/**
 * Returns the token subject a session is bound to: the SHA-256 of the bearer token, in hex, so the stores
 * keep no token, only a value that tells one token from another. Undefined when there is no token.
 */
export function toTokenSubject(token: string | undefined): string | undefined {
  if (token === undefined || token === '') return undefined;
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
