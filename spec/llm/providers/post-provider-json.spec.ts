import { ToolCancelledError } from '../../../lib/errors/tool-cancelled-error';
import { ToolRuntimeError } from '../../../lib/errors/tool-runtime-error';
import { postProviderJson, scrub } from '../../../lib/llm/providers/post-provider-json';
import { startProviderServer } from '../../fixtures/llm/provider-test-server';
import type { ProviderTestServer } from '../../fixtures/llm/provider-test-server';

const SECRET = 'secret-key-abcdef';

describe('postProviderJson', () => {
  let server: ProviderTestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const post = (url: string, extra: { signal?: AbortSignal; timeoutMs?: number; provider?: string } = {}) =>
    postProviderJson({
      provider: extra.provider ?? 'anthropic',
      url,
      headers: { 'x-api-key': SECRET },
      body: { a: 1 },
      secrets: [SECRET],
      signal: extra.signal,
      timeoutMs: extra.timeoutMs ?? 5000,
    });

  describe('success', () => {
    it('posts JSON with the headers and returns the parsed body', async () => {
      server = await startProviderServer([{ body: { ok: true } }]);
      expect(await post(`${server.baseUrl}/v1/messages`)).toEqual({ ok: true });
      expect(server.requests[0]).toMatchObject({ method: 'POST', url: '/v1/messages', body: { a: 1 } });
      expect(server.requests[0].headers).toMatchObject({
        'content-type': 'application/json',
        'x-api-key': SECRET,
      });
    });
  });

  describe('HTTP errors', () => {
    it.each([
      [500, true],
      [502, true],
      [503, true],
      [529, true],
      [408, true],
      [400, false],
      [403, false],
      [404, false],
    ])('marks HTTP %i retryable: %s', async (status, retryable) => {
      server = await startProviderServer([
        { status, body: { type: 'error', error: { type: 'x', message: 'Something happened' } } },
      ]);
      const error = (await post(`${server.baseUrl}/v1/messages`).catch(
        (caught: unknown) => caught,
      )) as ToolRuntimeError;
      expect(error).toBeInstanceOf(ToolRuntimeError);
      expect(error).toMatchObject({ provider: 'anthropic', status, retryable });
      expect(error.message).toMatch(new RegExp(`^Anthropic answered HTTP ${status}: Something happened\\.`));
    });

    it('shows a non-JSON error body, shortened', async () => {
      server = await startProviderServer([
        { status: 502, raw: true, body: `<html>${'bad gateway '.repeat(80)}</html>` },
      ]);
      const error = (await post(`${server.baseUrl}/x`).catch(
        (caught: unknown) => caught,
      )) as ToolRuntimeError;
      expect(error.message).toMatch(
        /^Anthropic answered HTTP 502: <html>bad gateway .{400,}…\. This may succeed if retried later\.$/,
      );
    });

    it('rejects a 2xx body that is not a JSON object', async () => {
      server = await startProviderServer([{ raw: true, body: 'not json' }]);
      await expect(post(`${server.baseUrl}/x`)).rejects.toThrow(
        new ToolRuntimeError('Anthropic answered HTTP 200 with a body that is not a JSON object.'),
      );
    });
  });

  describe('transport', () => {
    it('reports an unreachable server as retryable, naming only the origin', async () => {
      server = await startProviderServer([]);
      const url = `${server.baseUrl}/v1/messages?key=${SECRET}`;
      await server.close();
      server = undefined;
      const error = (await post(url).catch((caught: unknown) => caught)) as ToolRuntimeError;
      expect(error).toBeInstanceOf(ToolRuntimeError);
      expect(error.message).toMatch(
        /^Could not reach Anthropic at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\); check the base URL and the network, then try again\.$/,
      );
      expect(error).toMatchObject({ provider: 'anthropic', retryable: true, status: undefined });
    });

    it('reports a timeout as retryable', async () => {
      server = await startProviderServer([{ body: { late: true }, delayMs: 2000 }]);
      await expect(post(`${server.baseUrl}/x`, { timeoutMs: 100 })).rejects.toMatchObject({
        name: 'ToolRuntimeError',
        message: 'The Anthropic request timed out after 100 ms; try again or raise timeoutMs.',
        retryable: true,
      });
    });

    it('turns an abort into ToolCancelledError', async () => {
      server = await startProviderServer([{ body: { late: true }, delayMs: 2000 }]);
      const controller = new AbortController();
      const pending = post(`${server.baseUrl}/x`, { signal: controller.signal });
      setTimeout(() => controller.abort('user stop'), 20);
      await expect(pending).rejects.toThrow(new ToolCancelledError('The Anthropic request was canceled.'));
    });
  });
});

describe('scrub', () => {
  describe('secrets', () => {
    it('removes given secrets and key-shaped strings', () => {
      expect(scrub(`key ${SECRET} and sk-proj-abcdefghijklmnop and AIzaSyA1234567890abcdef`, [SECRET])).toBe(
        'key [redacted] and sk-…[redacted] and AIza…[redacted]',
      );
    });
  });
});
