import type { IncomingMessage } from 'node:http';

/**
 * The bearer token of a request (`Authorization: Bearer <token>`), or undefined when it carries none or the
 * header is not of that form. The one place the header is read.
 */
export function readBearerToken(request: IncomingMessage): string | undefined {
  const header = request.headers.authorization;
  return typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] : undefined;
}
