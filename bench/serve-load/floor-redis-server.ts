import type { Server } from 'node:http';
import { createClient } from 'redis';
import { createFloorServer } from './floor-server';

/**
 * The scale-out floor: {@link createFloorServer} plus the one thing a server whose sessions live in Redis
 * cannot avoid, one Redis round trip per request (a `GET` of the session's key). Nothing else: no session
 * records written, no event log, no routing.
 */
export async function createFloorRedisServer(
  url: string,
  keyPrefix: string,
): Promise<{ server: Server; close(): Promise<void> }> {
  const client = createClient({ url });
  client.on('error', (error: unknown) => process.stderr.write(`floor-redis: ${String(error)}\n`));
  await client.connect();
  const server = createFloorServer(async (sessionId) => {
    await client.get(`${keyPrefix}floor:${sessionId ?? 'none'}`);
  });
  return { server, close: async () => void (await client.quit()) };
}
