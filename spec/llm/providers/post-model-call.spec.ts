import { ToolRuntimeError } from '../../../lib/errors/tool-runtime-error';
import { postModelCall } from '../../../lib/llm/providers/post-model-call';
import { startProviderServer } from '../../fixtures/llm/provider-test-server';
import type { ProviderTestServer } from '../../fixtures/llm/provider-test-server';

const SECRET = 'secret-key-abcdef';

describe('postModelCall', () => {
  let server: ProviderTestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  describe('request', () => {
    it('posts to the trimmed base plus the path, with the extra headers overridden by the auth headers', async () => {
      server = await startProviderServer([{ body: { ok: true } }]);
      const data = await postModelCall({
        provider: 'anthropic',
        options: { baseUrl: `${server.baseUrl}//`, headers: { 'x-api-key': 'ignored', 'x-extra': 'yes' } },
        defaultBaseUrl: 'http://127.0.0.1:9',
        path: '/v1/messages',
        apiKey: SECRET,
        authHeaders: { 'x-api-key': SECRET },
        body: { a: 1 },
      });
      expect(data).toEqual({ ok: true });
      expect(server.requests[0]).toMatchObject({ method: 'POST', url: '/v1/messages', body: { a: 1 } });
      expect(server.requests[0].headers).toMatchObject({ 'x-api-key': SECRET, 'x-extra': 'yes' });
    });

    it('uses the default base when the options have none', async () => {
      server = await startProviderServer([{ body: { ok: true } }]);
      await postModelCall({
        provider: 'ollama',
        options: {},
        defaultBaseUrl: server.baseUrl,
        path: '/chat/completions',
        apiKey: undefined,
        authHeaders: {},
        body: {},
      });
      expect(server.requests[0].url).toBe('/chat/completions');
      expect(server.requests[0].headers.authorization).toBeUndefined();
    });
  });

  describe('errors', () => {
    it('throws ToolRuntimeError with the key scrubbed from the provider message', async () => {
      server = await startProviderServer([
        { status: 401, body: { error: { message: `Bad key ${SECRET}` } } },
      ]);
      const error = (await postModelCall({
        provider: 'openai',
        options: { baseUrl: server.baseUrl },
        defaultBaseUrl: 'http://127.0.0.1:9',
        path: '/responses',
        apiKey: SECRET,
        authHeaders: { authorization: `Bearer ${SECRET}` },
        body: {},
      }).catch((caught: unknown) => caught)) as ToolRuntimeError;
      expect(error).toBeInstanceOf(ToolRuntimeError);
      expect(error).toMatchObject({ provider: 'openai', status: 401, retryable: false });
      expect(error.message).toBe('OpenAI answered HTTP 401: Bad key [redacted]. Check the API key.');
    });
  });
});
