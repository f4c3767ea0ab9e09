import { CliUsageError } from '../../lib/cli/cli-usage-error';
import { resolveServeScaleOut } from '../../lib/cli/resolve-serve-scale-out';
import type { ServeScaleOutFlags } from '../../lib/cli/resolve-serve-scale-out';
import { ToolInputError } from '../../lib/errors/tool-input-error';

const URL_ = 'redis://127.0.0.1:6379';

function usageError(flags: Partial<ServeScaleOutFlags>): CliUsageError {
  try {
    resolveServeScaleOut({ env: {}, ...flags });
  } catch (error) {
    expect(error).toBeInstanceOf(CliUsageError);
    expect(error).toBeInstanceOf(ToolInputError);
    expect(error).toMatchObject({ name: 'CliUsageError', code: 'CLI_USAGE' });
    return error as CliUsageError;
  }
  throw new Error(`resolveServeScaleOut(${JSON.stringify(flags)}) did not throw`);
}

describe('resolveServeScaleOut', () => {
  it('defaults to one process and no Redis', () => {
    expect(resolveServeScaleOut({ env: {} })).toEqual({
      workers: 1,
      redis: undefined,
      redisKeyPrefix: undefined,
      publicUrl: undefined,
    });
  });

  it('takes --redis over PROTOLINK_REDIS_URL, and the variable when the flag is missing', () => {
    const env = { PROTOLINK_REDIS_URL: ' redis://env-host:6379 ' };
    expect(resolveServeScaleOut({ redis: URL_, env }).redis).toEqual({ url: URL_, source: '--redis' });
    expect(resolveServeScaleOut({ env }).redis).toEqual({
      url: 'redis://env-host:6379',
      source: 'PROTOLINK_REDIS_URL',
    });
    expect(resolveServeScaleOut({ env: { PROTOLINK_REDIS_URL: '  ' } }).redis).toBeUndefined();
  });

  it('takes --workers from 1 to 64, stateful with Redis or stateless without', () => {
    expect(resolveServeScaleOut({ workers: '4', redis: URL_, redisKeyPrefix: 'crm:', env: {} })).toEqual({
      workers: 4,
      redis: { url: URL_, source: '--redis' },
      redisKeyPrefix: 'crm:',
      publicUrl: undefined,
    });
    expect(resolveServeScaleOut({ workers: '64', stateless: true, env: {} }).workers).toBe(64);
    expect(resolveServeScaleOut({ workers: '1', env: {} }).workers).toBe(1);
    expect(resolveServeScaleOut({ workers: 3, env: { PROTOLINK_REDIS_URL: URL_ } }).workers).toBe(3);
  });

  it('refuses --workers that is not a whole number from 1 to 64', () => {
    for (const workers of ['0', '65', '-1', '1.5', 'two', '', '2e1', '0x2']) {
      expect(usageError({ workers, stateless: true }).message).toBe(
        `--workers must be a whole number from 1 to 64, got '${workers}'.`,
      );
    }
  });

  it('refuses several stateful workers without Redis, naming both ways out', () => {
    expect(usageError({ workers: '2' }).message).toBe(
      '--workers 2 needs --redis <url> (or PROTOLINK_REDIS_URL): stateful MCP sessions must be shared between the worker processes. Add --redis <url>, or serve with --stateless.',
    );
  });

  it('refuses Redis with --stateless, from the flag or from the environment', () => {
    expect(usageError({ stateless: true, redis: URL_ }).message).toBe(
      '--redis cannot be used with --stateless: stateless serving keeps no sessions, so there is nothing to share. Remove --redis, or leave out --stateless.',
    );
    expect(usageError({ stateless: true, env: { PROTOLINK_REDIS_URL: URL_ } }).message).toBe(
      'PROTOLINK_REDIS_URL (set in the environment) cannot be used with --stateless: stateless serving keeps no sessions, so there is nothing to share. Remove it (unset PROTOLINK_REDIS_URL), or leave out --stateless.',
    );
  });

  it('refuses a Redis URL that is not redis:// or rediss://, without its password', () => {
    const error = usageError({ redis: 'http://user:hunter2@cache:6379' });
    expect(error.message).toBe(
      "--redis must be a redis:// or rediss:// URL (like redis://127.0.0.1:6379), got 'http://***@cache:6379'.",
    );
    expect(usageError({ env: { PROTOLINK_REDIS_URL: 'cache:6379' } }).message).toBe(
      "PROTOLINK_REDIS_URL must be a redis:// or rediss:// URL (like redis://127.0.0.1:6379), got 'cache:6379'.",
    );
  });

  it('refuses --redis-key-prefix without Redis', () => {
    expect(usageError({ redisKeyPrefix: 'crm:' }).message).toBe(
      '--redis-key-prefix needs a Redis: add --redis <url> (or set PROTOLINK_REDIS_URL), or remove it.',
    );
  });

  it('refuses HTTP-only flags with --stdio, and ignores PROTOLINK_REDIS_URL there', () => {
    expect(usageError({ stdio: true, workers: '2' }).message).toBe(
      '--workers applies to HTTP serving only; remove it or serve with --http.',
    );
    expect(usageError({ stdio: true, redis: URL_, publicUrl: 'https://a.example' }).message).toBe(
      '--redis, --public-url apply to HTTP serving only; remove them or serve with --http.',
    );
    expect(usageError({ stdio: true, redisKeyPrefix: 'x:' }).message).toContain('--redis-key-prefix applies');
    expect(resolveServeScaleOut({ stdio: true, env: { PROTOLINK_REDIS_URL: URL_ } })).toEqual({ workers: 1 });
  });

  it('takes a plain http(s) --public-url and refuses others', () => {
    expect(resolveServeScaleOut({ publicUrl: 'https://agent.example.com', env: {} }).publicUrl).toBe(
      'https://agent.example.com',
    );
    expect(usageError({ publicUrl: 'ftp://agent.example.com' }).message).toBe(
      "--public-url: must be an http:// or https:// URL, got 'ftp://agent.example.com/'. Give the base URL clients use, e.g. https://agent.example.com.",
    );
    const credentials = usageError({ publicUrl: 'https://u:hunter2@agent.example.com' });
    expect(credentials.message).toContain('--public-url: must not carry credentials');
    expect(credentials.message).not.toContain('hunter2');
    expect(usageError({ publicUrl: 'https://agent.example.com/?a=1' }).message).toContain(
      '--public-url: must not have a query or a fragment',
    );
  });
});
