import { ToolInputError } from '../../lib/errors/tool-input-error';
import { isLoopbackAddress, resolveListenAddress } from '../../lib/server/resolve-listen-address';

describe('resolveListenAddress', () => {
  it('accepts loopback addresses and maps localhost to 127.0.0.1', () => {
    expect(resolveListenAddress('http://127.0.0.1:8080')).toEqual({
      host: '127.0.0.1',
      hostname: '127.0.0.1',
      port: 8080,
    });
    expect(resolveListenAddress('http://localhost:0')).toEqual({
      host: '127.0.0.1',
      hostname: 'localhost',
      port: 0,
    });
    expect(resolveListenAddress('http://[::1]:9000')).toEqual({ host: '::1', hostname: '[::1]', port: 9000 });
    expect(resolveListenAddress('http://127.8.9.10')).toEqual({
      host: '127.8.9.10',
      hostname: '127.8.9.10',
      port: 80,
    });
  });

  it('refuses non-loopback hosts unless allowNonLoopback is set', () => {
    for (const url of [
      'http://0.0.0.0:1',
      'http://10.0.0.5:1',
      'http://[::]:1',
      'http://[2001:db8::1]:1',
      'http://agents.example:1',
    ]) {
      expect(() => resolveListenAddress(url)).toThrow(ToolInputError);
      expect(() => resolveListenAddress(url)).toThrow(
        /not a loopback address, so other machines could call the agent's tools/,
      );
    }
    expect(resolveListenAddress('http://0.0.0.0:8080', true)).toEqual({
      host: '0.0.0.0',
      hostname: '0.0.0.0',
      port: 8080,
    });
  });

  it('reads numeric IPv4 spellings the way the URL parser canonicalizes them', () => {
    expect(resolveListenAddress('http://2130706433:1').host).toBe('127.0.0.1');
    expect(() => resolveListenAddress('http://0x0a000001:1')).toThrow(/Refusing to listen on '10\.0\.0\.1'/);
  });

  it('refuses https, paths, queries, credentials and non-URLs', () => {
    expect(() => resolveListenAddress('https://127.0.0.1:1')).toThrow(/only http:\/\/ is served/);
    expect(() => resolveListenAddress('http://127.0.0.1:1/x')).toThrow(/give only scheme, host and port/);
    expect(() => resolveListenAddress('http://127.0.0.1:1/?a=1')).toThrow(/give only scheme, host and port/);
    expect(() => resolveListenAddress('http://user:pw@127.0.0.1:1')).toThrow(
      /give only scheme, host and port/,
    );
    expect(() => resolveListenAddress('127.0.0.1:1')).toThrow(ToolInputError);
    expect(() => resolveListenAddress('::')).toThrow(/not a URL/);
  });
});

describe('isLoopbackAddress', () => {
  it('knows 127/8, ::1 and IPv4-mapped loopback, and nothing else', () => {
    expect(
      ['127.0.0.1', '127.255.0.9', '::1', '::ffff:7f00:1', '::ffff:127.0.0.1'].map(isLoopbackAddress),
    ).toEqual([true, true, true, true, true]);
    expect(['0.0.0.0', '::', '128.0.0.1', '::2', 'localhost', '10.0.0.1'].map(isLoopbackAddress)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
