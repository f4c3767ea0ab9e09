import { createClient } from 'redis';
import { ToolDefinitionError } from '../../lib/errors/tool-definition-error';
import { ToolInputError } from '../../lib/errors/tool-input-error';
import { redactRedisUrl, resolveRedisOption } from '../../lib/server/resolve-redis-option';
import type { RedisClientLike } from '../../lib/state/redis-client-like';

describe('resolveRedisOption', () => {
  it('returns undefined without redis, and the URL or client with the default or given prefix', () => {
    expect(resolveRedisOption({})).toBeUndefined();
    expect(resolveRedisOption({ redisKeyPrefix: 'crm:' })).toBeUndefined();
    expect(resolveRedisOption({ redis: 'redis://127.0.0.1:6379' })).toEqual({
      redis: 'redis://127.0.0.1:6379',
      keyPrefix: 'protolink:',
    });
    expect(resolveRedisOption({ redis: 'rediss://:pw@cache.internal:6380/2', redisKeyPrefix: '' })).toEqual({
      redis: 'rediss://:pw@cache.internal:6380/2',
      keyPrefix: '',
    });
    const client = createClient() as unknown as RedisClientLike;
    expect(resolveRedisOption({ redis: client, sessionMode: 'stateful' })?.redis).toBe(client);
  });

  it('refuses a URL that is not a redis:// or rediss:// one, without its password', () => {
    for (const url of [
      'http://127.0.0.1:6379',
      'localhost:6379',
      'redis://',
      'https://user:hunter2@cache:1',
    ]) {
      const create = () => resolveRedisOption({ redis: url });
      expect(create).toThrow(ToolInputError);
      expect(create).toThrow(
        `redis must be a redis:// or rediss:// URL (like redis://127.0.0.1:6379) or a node-redis client, got '${redactRedisUrl(url)}'.`,
      );
    }
    expect(() => resolveRedisOption({ redis: 'https://user:hunter2@cache:1' })).not.toThrow(/hunter2/);
  });

  it('refuses a value that is neither a string nor a node-redis client', () => {
    for (const [value, what] of [
      [42, 'number'],
      [null, 'null'],
      [{ url: 'redis://127.0.0.1' }, 'an object without sendCommand, duplicate and connect'],
    ] as const) {
      const create = () => resolveRedisOption({ redis: value as unknown as string });
      expect(create).toThrow(ToolInputError);
      expect(create).toThrow(
        `redis must be a redis:// or rediss:// URL or a node-redis client (createClient() of 'redis'), got ${what}.`,
      );
    }
  });

  it('refuses a key prefix with braces, spaces or over 200 characters, with or without redis', () => {
    for (const redisKeyPrefix of ['a{b}', 'has space', 'x'.repeat(201), 'é']) {
      for (const redis of [undefined, 'redis://127.0.0.1:6379']) {
        const create = () => resolveRedisOption({ redis, redisKeyPrefix });
        expect(create).toThrow(ToolInputError);
        expect(create).toThrow(
          `redisKeyPrefix must be up to 200 visible ASCII characters without braces, got '${redisKeyPrefix.slice(0, 100)}'.`,
        );
      }
    }
    expect(() => resolveRedisOption({ redisKeyPrefix: 42 as unknown as string })).toThrow(ToolInputError);
  });

  it('refuses redis with stateless serving, saying why and what to do', () => {
    const create = () => resolveRedisOption({ redis: 'redis://127.0.0.1:6379', sessionMode: 'stateless' });
    expect(create).toThrow(ToolDefinitionError);
    expect(create).toThrow(
      "redis cannot be used with sessionMode: 'stateless': stateless serving keeps no sessions, so there is nothing to share",
    );
    expect(create).toThrow("Remove redis, or serve statefully (sessionMode: 'stateful', the default)");
  });

  it('refuses redis with eventStore (a factory, or false)', () => {
    for (const eventStore of [false, () => ({}) as never] as const) {
      const create = () => resolveRedisOption({ redis: 'redis://127.0.0.1:6379', eventStore });
      expect(create).toThrow(ToolDefinitionError);
      expect(create).toThrow(
        'eventStore cannot be used with redis: with redis the events of every session live in Redis (bounded by maxEventStoreBytesPerSession and eventStoreResumeWindowMs), so any process can resume any stream. Remove eventStore.',
      );
    }
  });
});

describe('redactRedisUrl', () => {
  it('hides the user and password, and keeps the rest', () => {
    expect(redactRedisUrl('redis://:hunter2@cache:6379/0')).toBe('redis://***@cache:6379/0');
    expect(redactRedisUrl('rediss://app:hunter2@cache:6380')).toBe('rediss://***@cache:6380');
    expect(redactRedisUrl('redis://cache:6379')).toBe('redis://cache:6379');
  });
});
