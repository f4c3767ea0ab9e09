import { ToolRuntimeError } from '../../../lib/errors/tool-runtime-error';
import { UnsafeUrlError } from '../../../lib/errors/unsafe-url-error';
import { fetchUrl } from '../../../lib/builtins/fetch-url/fetch-url';
import {
  PUBLIC_V4,
  PUBLIC_V4_B,
  PUBLIC_V6,
  buildTestSeams,
  startHttpTestServer,
} from '../../fixtures/net/test-http-server';
import type { RecordingSeams, TestServer } from '../../fixtures/net/test-http-server';
import {
  CREDENTIAL_URLS,
  DISALLOWED_SCHEME_URLS,
  LOCAL_OR_LOOKALIKE_HOST_URLS,
  MALFORMED_URLS,
  NON_DEFAULT_PORT_URLS,
  NON_PUBLIC_DNS_ANSWERS,
  NON_PUBLIC_LITERAL_URLS,
  UNSAFE_REDIRECT_LOCATIONS,
} from '../../fixtures/net/unsafe-urls';

/** Names the test resolver knows; every one of them is served by a local server through the connector. */
const HOSTS: Record<string, string[]> = {
  'site.example': [PUBLIC_V4],
  'secure.example': [PUBLIC_V4],
  'v6.example': [PUBLIC_V6],
};

let target: TestServer;
let redirector: TestServer;

beforeAll(async () => {
  target = await startHttpTestServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end('reached');
  });
  redirector = await startHttpTestServer((request, response) => {
    const location = new URL(request.url ?? '/', 'http://x').searchParams.get('to');
    response.writeHead(302, location === null ? {} : { location });
    response.end();
  });
});

afterAll(async () => {
  await target.close();
  await redirector.close();
});

function buildTool(hosts: Record<string, string[]> = {}): {
  tool: ReturnType<typeof fetchUrl>;
  seams: RecordingSeams;
} {
  const seams = buildTestSeams(
    { ...HOSTS, ...hosts },
    { [PUBLIC_V4]: target, [PUBLIC_V6]: target, [PUBLIC_V4_B]: target },
  );
  return {
    tool: fetchUrl({ resolver: seams.resolver, connector: seams.connector, timeoutMs: 5_000 }),
    seams,
  };
}

/** Calls the tool and returns the UnsafeUrlError it must throw, after checking nothing reached a server. */
async function expectRefused(
  call: Promise<unknown>,
  seams: RecordingSeams,
  reason: string,
): Promise<UnsafeUrlError> {
  const before = target.connections;
  let caught: unknown;
  await call.catch((error: unknown) => {
    caught = error;
  });
  expect(caught).toBeInstanceOf(UnsafeUrlError);
  const error = caught as UnsafeUrlError;
  expect(error.reason).toBe(reason);
  expect(error.message).toMatch(
    /^fetch_url: refused to fetch '.*'.*Only public http\(s\) URLs on the default ports can be fetched\.$/su,
  );
  expect(target.connections).toBe(before);
  expect(seams.targets).toEqual([]);
  return error;
}

describe('fetchUrl', () => {
  describe('call (unsafe URLs: nothing is connected to)', () => {
    it('reaches the server for a public name, which proves the harness connects when it should', async () => {
      const { tool, seams } = buildTool();
      const before = target.connections;
      await expect(tool.call({ url: 'http://site.example/' })).resolves.toMatchObject({
        text: 'reached',
        status: 200,
      });
      expect(target.connections).toBe(before + 1);
      expect(seams.targets).toEqual([{ address: PUBLIC_V4, port: 80, hostname: 'site.example', tls: false }]);
    });

    it.each(NON_PUBLIC_LITERAL_URLS)(
      'refuses the non-public literal %s before any connection',
      async (url) => {
        const { tool, seams } = buildTool();
        const error = await expectRefused(tool.call({ url }), seams, 'non-public address');
        expect(error.message).toContain('is not public');
        expect(seams.lookups).toEqual([]);
      },
    );

    it.each(LOCAL_OR_LOOKALIKE_HOST_URLS)('refuses the local or look-alike host %s', async (url, reason) => {
      const { tool, seams } = buildTool();
      await expectRefused(tool.call({ url }), seams, reason);
      expect(seams.lookups).toEqual([]);
    });

    it.each(DISALLOWED_SCHEME_URLS)('refuses the scheme of %s', async (url) => {
      const { tool, seams } = buildTool();
      await expectRefused(tool.call({ url }), seams, 'scheme');
    });

    it.each(CREDENTIAL_URLS)('refuses the credentials in %s', async (url) => {
      const { tool, seams } = buildTool();
      await expectRefused(tool.call({ url }), seams, 'credentials');
    });

    it.each(NON_DEFAULT_PORT_URLS)('refuses the non-default port in %s', async (url) => {
      const { tool, seams } = buildTool();
      await expectRefused(tool.call({ url }), seams, 'port');
    });

    it.each(MALFORMED_URLS)('refuses the malformed URL %j', async (url) => {
      const { tool, seams } = buildTool();
      await expectRefused(tool.call({ url }), seams, 'malformed URL');
      expect(seams.lookups).toEqual([]);
    });
  });

  describe('call (DNS answers: every address must be public)', () => {
    it.each(NON_PUBLIC_DNS_ANSWERS)(
      'refuses a name that resolves to %j without connecting',
      async (answer) => {
        const { tool, seams } = buildTool({ 'evil.example': answer });
        const error = await expectRefused(
          tool.call({ url: 'http://evil.example/' }),
          seams,
          'non-public address',
        );
        expect(error.message).toContain("the host 'evil.example' resolves to");
        expect(seams.lookups).toEqual(['evil.example']);
      },
    );

    it('refuses the second answer of a rebinding name, so only the validated first address was reached', async () => {
      let calls = 0;
      const seams = buildTestSeams({}, { [PUBLIC_V4]: redirector });
      const tool = fetchUrl({
        resolver: async (hostname) => {
          seams.lookups.push(hostname);
          calls += 1;
          return calls === 1 ? [PUBLIC_V4] : ['127.0.0.1'];
        },
        connector: seams.connector,
      });
      const url = 'http://rebind.example/a?to=' + encodeURIComponent('http://rebind.example/b');
      await expect(tool.call({ url })).rejects.toThrow(UnsafeUrlError);
      expect(seams.lookups).toEqual(['rebind.example', 'rebind.example']);
      expect(seams.targets.map((connected) => connected.address)).toEqual([PUBLIC_V4]);
    });

    it('throws ToolRuntimeError when the name does not resolve', async () => {
      const { tool, seams } = buildTool();
      const call = tool.call({ url: 'http://unknown.example/' });
      await expect(call).rejects.toThrow(ToolRuntimeError);
      await expect(call).rejects.toThrow(
        /could not resolve public URL host 'unknown\.example' \(ENOTFOUND\)/u,
      );
      expect(seams.targets).toEqual([]);
    });

    it('throws ToolRuntimeError when the resolver answers no address', async () => {
      const { tool } = buildTool({ 'empty.example': [] });
      await expect(tool.call({ url: 'http://empty.example/' })).rejects.toThrow(
        /could not resolve public URL host 'empty\.example': the resolver returned no address/u,
      );
    });
  });

  describe('call (redirects are validated like first URLs)', () => {
    function redirectTo(location: string): string {
      return `http://site.example/start?to=${encodeURIComponent(location)}`;
    }

    function buildRedirectTool(hosts: Record<string, string[]> = {}): {
      tool: ReturnType<typeof fetchUrl>;
      seams: RecordingSeams;
    } {
      const seams = buildTestSeams(
        { ...HOSTS, 'private.example': ['10.0.0.1'], 'mixed.example': [PUBLIC_V4_B, '127.0.0.1'], ...hosts },
        { [PUBLIC_V4]: redirector, [PUBLIC_V4_B]: target, '10.0.0.1': target, '127.0.0.1': target },
      );
      return {
        tool: fetchUrl({ resolver: seams.resolver, connector: seams.connector, timeoutMs: 5_000 }),
        seams,
      };
    }

    it.each(UNSAFE_REDIRECT_LOCATIONS)(
      'refuses a redirect to %s before connecting to it',
      async (location, reason) => {
        const { tool, seams } = buildRedirectTool();
        const before = { redirector: redirector.connections, target: target.connections };
        const call = tool.call({ url: redirectTo(location) });
        await expect(call).rejects.toThrow(UnsafeUrlError);
        await call.catch((error: UnsafeUrlError) => expect(error.reason).toBe(reason));
        expect(redirector.connections).toBe(before.redirector + 1);
        expect(target.connections).toBe(before.target);
        expect(seams.targets.map((connected) => connected.address)).toEqual([PUBLIC_V4]);
      },
    );

    it('refuses an HTTPS to HTTP downgrade', async () => {
      const { tool, seams } = buildRedirectTool();
      const call = tool.call({
        url: `https://secure.example/start?to=${encodeURIComponent('http://site.example/')}`,
      });
      await expect(call).rejects.toThrow(UnsafeUrlError);
      await expect(call).rejects.toThrow(/downgrades HTTPS to HTTP/u);
      await call.catch((error: UnsafeUrlError) => expect(error.reason).toBe('redirect downgrade'));
      expect(seams.targets).toEqual([
        { address: PUBLIC_V4, port: 443, hostname: 'secure.example', tls: true },
      ]);
    });

    it('follows a public redirect and returns the final URL', async () => {
      const { tool, seams } = buildRedirectTool({ 'other.example': [PUBLIC_V4_B] });
      await expect(tool.call({ url: redirectTo('http://other.example/page#frag') })).resolves.toMatchObject({
        url: 'http://other.example/page',
        text: 'reached',
      });
      expect(seams.targets.map((connected) => connected.hostname)).toEqual(['site.example', 'other.example']);
    });
  });
});
