import { ToolRuntimeError } from '../../../../lib/errors/tool-runtime-error';
import { UnsafeUrlError } from '../../../../lib/errors/unsafe-url-error';
import { fetchUrl } from '../../../../lib/tools/builtins/fetch-url/fetch-url';
import {
  PUBLIC_V4,
  PUBLIC_V4_B,
  PUBLIC_V6,
  buildTestSeams,
  startHttpTestServer,
} from '../../../fixtures/net/test-http-server';
import type { RecordingSeams, TestServer } from '../../../fixtures/net/test-http-server';

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

    it.each([
      // IPv4 loopback in every spelling
      'http://127.0.0.1/',
      'https://127.0.0.1/',
      'http://127.1/',
      'http://127.0.1/',
      'http://127.0.0.1./',
      'http://127.255.255.254/',
      'http://0x7f.1/',
      'http://0x7f000001/',
      'http://0x7F.0x00.0x00.0x01/',
      'http://0x7f.0.0.1/',
      'http://2130706433/',
      'http://017700000001/',
      'http://0177.0.0.1/',
      'http://0177.0.0.01/',
      'http://127.000.000.001/',
      'http://127.0.0.1:80/',
      'http://127.1.1.1:80#@127.2.2.2:80/',
      // IPv6 loopback and IPv4 embedded in IPv6
      'http://[::1]/',
      'http://[0:0:0:0:0:0:0:1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[::ffff:7f00:1]/',
      'http://[0:0:0:0:0:ffff:127.0.0.1]/',
      'http://[::127.0.0.1]/',
      'http://[::7f00:1]/',
      'http://[::ffff:0:7f00:1]/',
      'http://[64:ff9b::127.0.0.1]/',
      'http://[64:ff9b::7f00:1]/',
      'http://[64:ff9b:1::7f00:1]/',
      'http://[2002:7f00:1::]/',
      'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/',
      // unspecified
      'http://0.0.0.0/',
      'http://0/',
      'http://0x0/',
      'http://0.0.0.1/',
      'http://[::]/',
      'http://[0:0:0:0:0:0:0:0]/',
      // private
      'http://10.0.0.1/',
      'http://10.255.255.255/',
      'http://0xa.1/',
      'http://167772161/',
      'http://172.16.0.1/',
      'http://172.31.255.255/',
      'http://192.168.0.1/',
      'http://3232235777/',
      'http://0300.0250.0.1/',
      'http://0xC0A80001/',
      'http://[fc00::1]/',
      'http://[fd12:3456::1]/',
      'http://[::ffff:10.0.0.1]/',
      'http://[::ffff:192.168.0.1]/',
      'http://[64:ff9b::a00:1]/',
      'http://[2002:c0a8:1::]/',
      // link-local and cloud metadata
      'http://169.254.169.254/latest/meta-data/',
      'http://0xA9FEA9FE/',
      'http://2852039166/',
      'http://0251.0376.0251.0376/',
      'http://[fe80::1]/',
      'http://[febf::1]/',
      'http://[::ffff:169.254.169.254]/',
      'http://[fd00:ec2::254]/',
      // carrier-grade NAT
      'http://100.64.0.1/',
      'http://100.127.255.254/',
      // multicast and broadcast
      'http://224.0.0.1/',
      'http://239.255.255.250/',
      'http://255.255.255.255/',
      'http://[ff02::1]/',
      'http://[ff05::1:3]/',
      // reserved, documentation, benchmarking and other special ranges
      'http://192.0.0.1/',
      'http://192.0.2.1/',
      'http://198.51.100.1/',
      'http://203.0.113.1/',
      'http://198.18.0.1/',
      'http://198.19.255.255/',
      'http://240.0.0.1/',
      'http://192.88.99.1/',
      'http://[2001:db8::1]/',
      'http://[2001:2::1]/',
      'http://[100::1]/',
      'http://[3fff::1]/',
      'http://[5f00::1]/',
      'http://[fec0::1]/',
      'http://[2001:10::1]/',
      'http://[2001::1]/',
      'http://[::2]/',
    ])('refuses the non-public literal %s before any connection', async (url) => {
      const { tool, seams } = buildTool();
      const error = await expectRefused(tool.call({ url }), seams, 'non-public address');
      expect(error.message).toContain('is not public');
      expect(seams.lookups).toEqual([]);
    });

    it.each([
      ['http://localhost/', 'local host name'],
      ['http://LOCALHOST/', 'local host name'],
      ['http://localhost./', 'local host name'],
      ['http://localhost:80/', 'local host name'],
      ['https://localhost/', 'local host name'],
      ['http://foo.localhost/', 'local host name'],
      ['http://a.b.localhost/', 'local host name'],
      ['http://printer.local/', 'local host name'],
      ['http://router.local./', 'local host name'],
      ['http://localhost.localdomain/', 'local host name'],
      ['http://ip6-localhost/', 'local host name'],
      ['http://metadata.google.internal/', 'local host name'],
      ['http://nas.home.arpa/', 'local host name'],
      ['http://intranet/', 'local host name'],
      ['http://ⓛⓞⓒⓐⓛⓗⓞⓢⓣ/', 'local host name'],
      ['http://ｌｏｃａｌｈｏｓｔ/', 'local host name'],
      ['http://１２７.０.０.１/', 'look-alike host'],
      ['http://①②⑦.⓪.⓪.①/', 'look-alike host'],
      ['http://ＥＸＡＭＰＬＥ.com/', 'look-alike host'],
      ['http://site\u3002example/', 'look-alike host'],
    ])('refuses the local or look-alike host %s', async (url, reason) => {
      const { tool, seams } = buildTool();
      await expectRefused(tool.call({ url }), seams, reason);
      expect(seams.lookups).toEqual([]);
    });

    it.each([
      'file:///etc/passwd',
      'ftp://site.example/',
      'gopher://site.example/',
      'data:text/plain,hello',
      'javascript:alert(1)',
      'ws://site.example/',
      'wss://site.example/',
      'dict://site.example:11211/',
      'ldap://site.example/',
      'jar:http://site.example/a.jar!/',
      'blob:http://site.example/x',
      'view-source:http://site.example/',
      'httpx://site.example/',
      'site.example',
      '//site.example/',
      '/relative/path',
    ])('refuses the scheme of %s', async (url) => {
      const { tool, seams } = buildTool();
      await expectRefused(tool.call({ url }), seams, 'scheme');
    });

    it.each([
      'http://user:pass@site.example/',
      'http://user@site.example/',
      'http://:@site.example/',
      'http://site.example@127.0.0.1/',
      'http://127.0.0.1@site.example/',
      'http://site.example:80@127.0.0.1/',
      'http://127.1.1.1:80@127.2.2.2:80/',
      'http://a%40b@site.example/',
      'https://token@secure.example/',
    ])('refuses the credentials in %s', async (url) => {
      const { tool, seams } = buildTool();
      await expectRefused(tool.call({ url }), seams, 'credentials');
    });

    it.each([
      'http://site.example:8080/',
      'http://site.example:443/',
      'https://secure.example:80/',
      'http://site.example:22/',
      'http://site.example:6379/',
      'http://site.example:0/',
      'http://site.example:65535/',
      'https://secure.example:8443/',
      'http://site.example:0443/',
    ])('refuses the non-default port in %s', async (url) => {
      const { tool, seams } = buildTool();
      await expectRefused(tool.call({ url }), seams, 'port');
    });

    it.each([
      'http:\\\\127.0.0.1\\',
      'http:/127.0.0.1/',
      'http:127.0.0.1',
      'http:///127.0.0.1/',
      'http:///site.example/',
      ' http://site.example/',
      'http://site.example/ ',
      'http://site.example/\n',
      'http://site.example/\r\nX-Injected: 1',
      'http://site\t.example/',
      'http://site.example\\@127.0.0.1/',
      'http://%6c%6f%63%61%6c%68%6f%73%74/',
      'http://127.0.0.1%09/',
      'http://[fe80::1%25eth0]/',
      'http://site\u200b.example/',
      'http://site\u00ad.example/',
      'http://site.example\u202e/',
      'http://\u0000site.example/',
      'http://site..example/',
      'http://-bad-.example/',
      'http://site.example:99999/',
      'http://site.example:+80/',
      'http://site.example:80a/',
      'http://1.2.3.999/',
      'http://[::1/',
      'http://',
    ])('refuses the malformed URL %j', async (url) => {
      const { tool, seams } = buildTool();
      await expectRefused(tool.call({ url }), seams, 'malformed URL');
      expect(seams.lookups).toEqual([]);
    });
  });

  describe('call (DNS answers: every address must be public)', () => {
    it.each([
      [['127.0.0.1']],
      [['127.0.0.53']],
      [['10.0.0.1']],
      [['172.16.5.4']],
      [['192.168.1.1']],
      [['169.254.169.254']],
      [['100.64.0.1']],
      [['0.0.0.0']],
      [['224.0.0.1']],
      [['255.255.255.255']],
      [['198.18.0.1']],
      [['192.0.2.1']],
      [['::1']],
      [['::']],
      [['::ffff:127.0.0.1']],
      [['::ffff:7f00:1']],
      [['::7f00:1']],
      [['64:ff9b::a9fe:a9fe']],
      [['2002:a00:1::']],
      [['fe80::1']],
      [['fc00::1']],
      [['fd00:ec2::254']],
      [['ff02::1']],
      [['2001:db8::1']],
      [[PUBLIC_V4, '127.0.0.1']],
      [['10.0.0.1', PUBLIC_V4]],
      [[PUBLIC_V6, 'fd00::1']],
      [[PUBLIC_V4, PUBLIC_V6, '::1']],
      [['127.1']],
      [['0x7f000001']],
      [['2130706433']],
      [['']],
      [['not-an-address']],
      [['93.184.216.34 ']],
      [['[::1]']],
      [['fe80::1%eth0']],
    ])('refuses a name that resolves to %j without connecting', async (answer) => {
      const { tool, seams } = buildTool({ 'evil.example': answer });
      const error = await expectRefused(
        tool.call({ url: 'http://evil.example/' }),
        seams,
        'non-public address',
      );
      expect(error.message).toContain("the host 'evil.example' resolves to");
      expect(seams.lookups).toEqual(['evil.example']);
    });

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

    it.each([
      ['http://127.0.0.1/', 'non-public address'],
      ['http://[::1]/', 'non-public address'],
      ['http://0x7f000001/', 'non-public address'],
      ['http://2130706433/admin', 'non-public address'],
      ['http://169.254.169.254/latest/meta-data/', 'non-public address'],
      ['http://[::ffff:10.0.0.1]/', 'non-public address'],
      ['http://[64:ff9b::7f00:1]/', 'non-public address'],
      ['//127.0.0.1/', 'non-public address'],
      ['http://private.example/', 'non-public address'],
      ['http://mixed.example/', 'non-public address'],
      ['http://localhost/', 'local host name'],
      ['http://printer.local/', 'local host name'],
      [`http://${encodeURIComponent('ⓛⓞⓒⓐⓛⓗⓞⓢⓣ')}/`, 'local host name'],
      ['http://%6c%6f%63%61%6c%68%6f%73%74/', 'local host name'],
      ['file:///etc/passwd', 'scheme'],
      ['gopher://site.example/', 'scheme'],
      ['data:text/html,<h1>x</h1>', 'scheme'],
      ['ftp://site.example/', 'scheme'],
      ['http://site.example:8080/', 'port'],
      ['http://user:pw@site.example/', 'credentials'],
      ['http:\\\\127.0.0.1\\', 'malformed URL'],
      ['/\\127.0.0.1/', 'malformed URL'],
      ['http://site.example/\tx', 'malformed URL'],
    ])('refuses a redirect to %s before connecting to it', async (location, reason) => {
      const { tool, seams } = buildRedirectTool();
      const before = { redirector: redirector.connections, target: target.connections };
      const call = tool.call({ url: redirectTo(location) });
      await expect(call).rejects.toThrow(UnsafeUrlError);
      await call.catch((error: UnsafeUrlError) => expect(error.reason).toBe(reason));
      expect(redirector.connections).toBe(before.redirector + 1);
      expect(target.connections).toBe(before.target);
      expect(seams.targets.map((connected) => connected.address)).toEqual([PUBLIC_V4]);
    });

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
