import axios from 'axios';
import { fetchUrl } from '../../../lib/builtins/fetch-url/fetch-url';
import { PUBLIC_V4, buildTestSeams, startHttpTestServer } from '../../fixtures/net/test-http-server';
import type { TestServer } from '../../fixtures/net/test-http-server';

describe('safeRequest under global axios settings of the host application', () => {
  let server: TestServer;
  const saved = {
    common: { ...axios.defaults.headers.common },
    params: axios.defaults.params,
    auth: axios.defaults.auth,
    httpVersion: (axios.defaults as { httpVersion?: number }).httpVersion,
  };

  beforeAll(async () => {
    server = await startHttpTestServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('hello');
    });
    axios.defaults.headers.common.Authorization = 'Bearer HOST-APP-SECRET';
    axios.defaults.headers.common.Cookie = 'session=HOST-COOKIE';
    axios.defaults.params = { api_key: 'HOST-PARAM-SECRET' };
    axios.defaults.auth = { username: 'host', password: 'HOST-PASSWORD' };
    (axios.defaults as { httpVersion?: number }).httpVersion = 2;
  });

  afterAll(async () => {
    axios.defaults.headers.common = saved.common as typeof axios.defaults.headers.common;
    axios.defaults.params = saved.params;
    axios.defaults.auth = saved.auth;
    (axios.defaults as { httpVersion?: number }).httpVersion = saved.httpVersion;
    await server.close();
  });

  it('sends none of them, over HTTP/1.1 through the validated connection', async () => {
    const seams = buildTestSeams({ 'site.example': [PUBLIC_V4] }, { [PUBLIC_V4]: server });
    const tool = fetchUrl({ resolver: seams.resolver, connector: seams.connector, timeoutMs: 5_000 });
    const result = (await tool.call({ url: 'http://site.example/page?q=1' })) as { text: string };
    expect(result.text).toBe('hello');
    expect(seams.lookups).toEqual(['site.example']);
    const seen = server.requests[server.requests.length - 1];
    expect(seen.path).toBe('/page?q=1');
    expect(seen.headers.authorization).toBeUndefined();
    expect(seen.headers.cookie).toBeUndefined();
    expect(JSON.stringify(seen)).not.toMatch(/HOST-/);
  });
});
