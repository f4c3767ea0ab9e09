import { ToolRuntimeError } from '../../../lib/errors/tool-runtime-error';
import { UnsafeUrlError } from '../../../lib/errors/unsafe-url-error';
import { resolvePublicAddresses } from '../../../lib/builtins/net/resolve-public-addresses';
import { PUBLIC_V4, PUBLIC_V6 } from '../../fixtures/net/test-http-server';

const signal = new AbortController().signal;

describe('resolvePublicAddresses', () => {
  it('returns a public IP literal without calling the resolver', async () => {
    const resolver = jest.fn();
    await expect(resolvePublicAddresses(`[${PUBLIC_V6}]`, { url: 'u', resolver, signal })).resolves.toEqual([
      PUBLIC_V6,
    ]);
    expect(resolver).not.toHaveBeenCalled();
  });

  it('returns every public address of the answer once, in order', async () => {
    await expect(
      resolvePublicAddresses('site.example', {
        url: 'u',
        resolver: async () => [PUBLIC_V4, PUBLIC_V6, PUBLIC_V4],
        signal,
      }),
    ).resolves.toEqual([PUBLIC_V4, PUBLIC_V6]);
  });

  it('validates what the OS resolver returns when no resolver is given (localhost resolves to loopback)', async () => {
    const call = resolvePublicAddresses('localhost', {
      url: 'http://localhost/',
      signal,
      toolName: 'fetch_url',
    });
    await expect(call).rejects.toThrow(UnsafeUrlError);
    await expect(call).rejects.toThrow(
      /^fetch_url: refused to fetch 'http:\/\/localhost\/': the host 'localhost' resolves to (127\.0\.0\.1|::1)/u,
    );
  });

  it('validates only the first 32 addresses of a huge answer', async () => {
    const answer = [...Array.from({ length: 32 }, () => PUBLIC_V4), '127.0.0.1'];
    await expect(
      resolvePublicAddresses('site.example', { url: 'u', resolver: async () => answer, signal }),
    ).resolves.toEqual([PUBLIC_V4]);
  });

  it('throws a retryable ToolRuntimeError naming the provider when the resolver fails', async () => {
    const call = resolvePublicAddresses('site.example', {
      url: 'u',
      resolver: async () => {
        throw Object.assign(new Error('timeout'), { code: 'EAI_AGAIN' });
      },
      signal,
      provider: 'wikipedia',
    });
    await expect(call).rejects.toThrow(ToolRuntimeError);
    await expect(call).rejects.toThrow(
      "could not resolve public URL host 'site.example' (EAI_AGAIN). Check the host name.",
    );
    await call.catch((error: ToolRuntimeError) => {
      expect(error.retryable).toBe(true);
      expect(error.provider).toBe('wikipedia');
    });
  });

  it('throws ToolRuntimeError when the resolver returns something that is not a list', async () => {
    await expect(
      resolvePublicAddresses('site.example', {
        url: 'u',
        resolver: async () => 'x' as unknown as string[],
        signal,
      }),
    ).rejects.toThrow("could not resolve public URL host 'site.example': the resolver returned no address.");
  });

  it('rejects with the signal reason when the signal aborts while resolving', async () => {
    const controller = new AbortController();
    const call = resolvePublicAddresses('site.example', {
      url: 'u',
      resolver: () => new Promise(() => undefined),
      signal: controller.signal,
    });
    controller.abort('stop');
    await expect(call).rejects.toBe('stop');
  });
});
