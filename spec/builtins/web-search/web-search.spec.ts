import type { NetworkSeams } from '../../../lib/builtins/net/network-seams';
import { webSearch } from '../../../lib/builtins/web-search/web-search';
import type { WebSearchResponse } from '../../../lib/builtins/web-search/web-search-types';
import { validateToolOutput } from '../../../lib/tools/validation/validate-tool-output';
import { readWebSearchFixture } from '../../fixtures/web-search/read-web-search-fixture';
import {
  SearchTestServer,
  TEST_PUBLIC_ADDRESS,
  generateTestCertificate,
} from '../../fixtures/web-search/search-test-server';

const KEY = 'BSA-test-key_0123456789abcdefXYZ';
const USER_AGENT = 'ProtoLink web_search (+https://github.com/nMaroulis/protolink)';
const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };
const HTML_TYPE = { 'content-type': 'text/html; charset=UTF-8' };

let server: SearchTestServer;
let savedKey: string | undefined;

beforeAll(async () => {
  server = await SearchTestServer.start(generateTestCertificate());
});

afterAll(async () => {
  await server.close();
});

beforeEach(() => {
  server.reset();
  savedKey = process.env.BRAVE_SEARCH_API_KEY;
  delete process.env.BRAVE_SEARCH_API_KEY;
});

afterEach(() => {
  if (savedKey === undefined) delete process.env.BRAVE_SEARCH_API_KEY;
  else process.env.BRAVE_SEARCH_API_KEY = savedKey;
});

function search(
  args: Record<string, unknown>,
  seams: NetworkSeams = server.seams(),
): Promise<WebSearchResponse> {
  return webSearch(seams).call(args) as Promise<WebSearchResponse>;
}

describe('webSearch', () => {
  describe('call() with engine brave', () => {
    const body = readWebSearchFixture('brave/web-search.what-is-semantic-kernel.json');

    it('sends the documented request with the key header and normalizes the recorded results', async () => {
      process.env.BRAVE_SEARCH_API_KEY = `  ${KEY}\n`;
      server.respond = () => ({ headers: JSON_TYPE, body });
      const response = await search({
        query: '  What is Semantic Kernel ',
        max_results: 3,
        freshness: 'week',
      });

      expect(server.resolved).toEqual(['api.search.brave.com']);
      expect(server.targets).toEqual([
        { address: TEST_PUBLIC_ADDRESS, port: 443, hostname: 'api.search.brave.com', tls: true },
      ]);
      expect(server.requests).toHaveLength(1);
      const [request] = server.requests;
      expect(request.method).toBe('GET');
      expect(request.servername).toBe('api.search.brave.com');
      expect(request.host).toBe('api.search.brave.com');
      expect(request.path).toBe(
        '/res/v1/web/search?q=What+is+Semantic+Kernel&count=3&result_filter=web&safesearch=moderate' +
          '&text_decorations=false&freshness=pw',
      );
      expect(request.headers['x-subscription-token']).toBe(KEY);
      expect(request.headers.accept).toBe('application/json');
      expect(request.headers['user-agent']).toBe(USER_AGENT);
      expect(request.headers['accept-encoding']).toBe('identity');
      expect(request.headers.cookie).toBeUndefined();

      expect(response.query).toBe('What is Semantic Kernel');
      expect(response.provider).toBe('brave');
      expect(response.more_results_available).toBe(true);
      expect(response.untrusted_content).toBe(true);
      expect(response.results).toEqual([
        {
          title: 'Introduction to Semantic Kernel | Microsoft Learn',
          url: 'https://learn.microsoft.com/en-us/semantic-kernel/overview/',
          snippet:
            'Semantic Kernel combines prompts with existing APIs to perform actions. By describing your existing code ' +
            'to AI models, they’ll be called to address requests. When a request is made the model calls a function, ' +
            "and Semantic Kernel is the middleware translating the model's request to a function ...",
          sponsored: false,
        },
        {
          title: 'Understanding the kernel in Semantic Kernel | Microsoft Learn',
          url: 'https://learn.microsoft.com/en-us/semantic-kernel/concepts/kernel',
          snippet:
            'This means that if you run any prompt or code in Semantic Kernel, the kernel will always be available ' +
            'to retrieve the necessary services and plugins. This is extremely powerful, because it means you as a ' +
            'developer have a single place where you can configure, and most importantly monitor, your ...',
          sponsored: false,
          age: 'July 25, 2024',
          published_at: '2024-07-25T00:00:00',
        },
        {
          title:
            'Semantic Kernel: The New Way to Create Artificial Intelligence Applications | by Adolfo | Globant | Medium',
          url: 'https://medium.com/globant/semantic-kernel-the-new-way-to-create-artificial-intelligence-applications-7959d5fc90ca',
          snippet:
            'When developing a solution using Semantic Kernel, there are a series of components that we can employ ' +
            'to provide a better experience in our application. Not all of them are mandatory to use, although it is ' +
            'advisable to be familiar with them.',
          sponsored: false,
          age: 'January 8, 2024',
          published_at: '2024-01-08T02:03:21',
        },
      ]);
      expect(() => validateToolOutput(response, webSearch().outputSchema!, 'web_search')).not.toThrow();
    });

    it.each([
      ['day', 'pd'],
      ['month', 'pm'],
      ['year', 'py'],
    ])("maps freshness '%s' to %s and omits it for 'any'", async (freshness, code) => {
      process.env.BRAVE_SEARCH_API_KEY = KEY;
      server.respond = () => ({ headers: JSON_TYPE, body });
      await search({ query: 'q', freshness });
      await search({ query: 'q' });
      expect(new URL(server.requests[0].path, 'https://x.example').searchParams.get('freshness')).toBe(code);
      expect(new URL(server.requests[1].path, 'https://x.example').searchParams.has('freshness')).toBe(false);
      expect(new URL(server.requests[1].path, 'https://x.example').searchParams.get('count')).toBe('5');
    });

    it('reads the key again on every call, so a changed key is used at once', async () => {
      server.respond = () => ({ headers: JSON_TYPE, body });
      const tool = webSearch(server.seams());
      process.env.BRAVE_SEARCH_API_KEY = 'first-key';
      await tool.call({ query: 'q' });
      process.env.BRAVE_SEARCH_API_KEY = 'second-key';
      await tool.call({ query: 'q' });
      expect(server.requests.map((request) => request.headers['x-subscription-token'])).toEqual([
        'first-key',
        'second-key',
      ]);
      expect(JSON.stringify(tool)).not.toContain('second-key');
    });

    it('drops malformed results and decodes entities in the derived fixture', async () => {
      process.env.BRAVE_SEARCH_API_KEY = KEY;
      server.respond = () => ({
        headers: JSON_TYPE,
        body: readWebSearchFixture('derived/brave-entities-and-malformed.json'),
      });
      const response = await search({ query: 'semantic kernel', max_results: 10 });
      expect(response.results).toEqual([
        {
          title: "Introduction to Semantic Kernel & Agents | Microsoft's Learn",
          url: 'https://learn.microsoft.com/en-us/semantic-kernel/overview/',
          snippet: "Semantic Kernel combines prompts with existing APIs… it's the middleware.",
          sponsored: false,
          age: '2 weeks ago',
          published_at: '2025-03-28T00:00:00',
        },
        {
          title: 'Sparse result',
          url: 'https://github.com/microsoft/semantic-kernel',
          snippet: '',
          sponsored: false,
        },
      ]);
      expect(response.more_results_available).toBe(false);
    });
  });

  describe('call() with engine duckduckgo', () => {
    it('sends the documented request without any key and keeps the ad first with sponsored: true', async () => {
      process.env.BRAVE_SEARCH_API_KEY = KEY;
      server.respond = () => ({
        headers: HTML_TYPE,
        body: readWebSearchFixture('duckduckgo/html-results-with-ad-uddg.weather-jakarta.html'),
      });
      const response = await search({ query: 'weather Jakarta', engine: 'duckduckgo', max_results: 3 });

      expect(server.targets).toEqual([
        { address: TEST_PUBLIC_ADDRESS, port: 443, hostname: 'html.duckduckgo.com', tls: true },
      ]);
      const [request] = server.requests;
      expect(request.servername).toBe('html.duckduckgo.com');
      expect(request.path).toBe('/html/?q=weather+Jakarta&kp=-1');
      expect(request.headers['x-subscription-token']).toBeUndefined();
      expect(request.headers['user-agent']).toBe(USER_AGENT);
      expect(request.headers.accept).toBe('text/html,application/xhtml+xml');

      expect(response.provider).toBe('duckduckgo');
      expect(response.results.map((result) => result.sponsored)).toEqual([true, false, false]);
      expect(response.results[0].title).toBe('Cheap Travel to Jakarta - Find Great Deals on Flights');
      expect(response.results[0].url).toMatch(
        /^https:\/\/duckduckgo\.com\/l\/\?uddg=https%3A%2F%2Fduckduckgo\.com%2Fy\.js/u,
      );
      expect(response.results[1]).toEqual({
        title: 'Jakarta, Jakarta, Indonesia Weather Forecast | AccuWeather',
        url: 'https://www.accuweather.com/en/id/jakarta/208971/weather-forecast/208971',
        snippet:
          'Jakarta, Jakarta, Indonesia Weather Forecast, with current conditions, wind, air quality, and what to expect for the next 3 days.',
        sponsored: false,
      });
      expect(response.more_results_available).toBe(true);
      expect(response.untrusted_content).toBe(true);
    });

    it.each([
      ['day', 'd'],
      ['week', 'w'],
      ['month', 'm'],
      ['year', 'y'],
    ])("maps freshness '%s' to df=%s", async (freshness, code) => {
      server.respond = () => ({
        headers: HTML_TYPE,
        body: readWebSearchFixture('duckduckgo/html-results-direct-links.eino.html'),
      });
      await search({ query: 'eino', engine: 'duckduckgo', freshness });
      expect(server.requests[0].path).toBe(`/html/?q=eino&kp=-1&df=${code}`);
    });

    it('never reads BRAVE_SEARCH_API_KEY for the keyless engines', async () => {
      process.env.BRAVE_SEARCH_API_KEY = KEY;
      const reads: PropertyKey[] = [];
      const environment = process.env;
      process.env = new Proxy(environment, {
        get(target, property) {
          reads.push(property);
          return Reflect.get(target, property) as unknown;
        },
      });
      try {
        server.respond = (request) =>
          request.host === 'en.wikipedia.org'
            ? { headers: JSON_TYPE, body: '{"pages":[]}' }
            : { headers: HTML_TYPE, body: readWebSearchFixture('duckduckgo/html-no-more-results.html') };
        await search({ query: 'q', engine: 'duckduckgo' });
        await search({ query: 'q', engine: 'wikipedia' });
        expect(reads).not.toContain('BRAVE_SEARCH_API_KEY');
        // Control: the same recording does see the read of a brave call (it fails later: no brave response set).
        await search({ query: 'q', engine: 'brave' }).catch(() => undefined);
      } finally {
        process.env = environment;
      }
      expect(server.requests).toHaveLength(3);
      expect(reads).toContain('BRAVE_SEARCH_API_KEY');
    });

    it('returns an empty list for the recorded no-results page', async () => {
      server.respond = () => ({
        headers: HTML_TYPE,
        body: readWebSearchFixture('duckduckgo/html-no-results-eof.html'),
      });
      await expect(search({ query: 'testtest', engine: 'duckduckgo' })).resolves.toEqual({
        query: 'testtest',
        provider: 'duckduckgo',
        results: [],
        more_results_available: false,
        untrusted_content: true,
      });
    });

    it('decodes redirect links, drops invalid URLs and decodes entities in the derived page', async () => {
      server.respond = () => ({
        headers: HTML_TYPE,
        body: readWebSearchFixture('derived/duckduckgo-entities-and-malformed.html'),
      });
      const response = await search({ query: 'cafe', engine: 'duckduckgo', max_results: 10 });
      expect(response.results.map((result) => [result.url, result.sponsored])).toEqual([
        ['https://example.com/a%20b?x=1', false],
        [
          'https://duckduckgo.com/y.js?ad_domain=example.org&ad_provider=bingv7aa&ad_type=txad&u3=https%3A%2F%2Fwww.bing.com%2Faclick',
          true,
        ],
        ['https://[2001:db8::1]:8443/path?q=%5Bx%5D', false],
        ['https://xn--bcher-kva.example/%C3%A4', false],
      ]);
      expect(response.results[0].title).toBe("Café & Bar 'Jakarta' <Guide> — 2026");
      expect(response.more_results_available).toBe(true);
    });
  });

  describe('call() with engine wikipedia', () => {
    it('asks for max_results + 1 pages and builds curid URLs from the recorded answer', async () => {
      process.env.BRAVE_SEARCH_API_KEY = KEY;
      server.respond = () => ({
        headers: JSON_TYPE,
        body: readWebSearchFixture('wikipedia/search-page.linksto-shell-computing.limit5.json'),
      });
      const response = await search({
        query: 'linksto:Shell_(computing)',
        engine: 'wikipedia',
        max_results: 4,
      });

      expect(server.targets).toEqual([
        { address: TEST_PUBLIC_ADDRESS, port: 443, hostname: 'en.wikipedia.org', tls: true },
      ]);
      const [request] = server.requests;
      expect(request.servername).toBe('en.wikipedia.org');
      expect(request.path).toBe('/w/rest.php/v1/search/page?q=linksto%3AShell_%28computing%29&limit=5');
      expect(request.headers['user-agent']).toBe(USER_AGENT);
      expect(request.headers.accept).toBe('application/json');
      expect(request.headers['x-subscription-token']).toBeUndefined();

      expect(response).toEqual({
        query: 'linksto:Shell_(computing)',
        provider: 'wikipedia',
        results: [
          {
            title: 'North Korea',
            url: 'https://en.wikipedia.org/?curid=21255',
            snippet:
              "Country in East Asia. North Korea, officially the Democratic People's Republic of Korea (DPRK), is a " +
              'country in East Asia. It constitutes the northern half of the Korean Peninsula',
            sponsored: false,
          },
          {
            title: 'Microsoft Windows',
            url: 'https://en.wikipedia.org/?curid=18890',
            snippet:
              'Computer operating systems. Microsoft Windows is a product line of proprietary graphical operating ' +
              'systems developed and marketed by Microsoft. It is grouped into families and sub-families',
            sponsored: false,
          },
          {
            title: 'MacOS',
            url: 'https://en.wikipedia.org/?curid=20640',
            snippet:
              'Operating system for Apple computers. macOS (/ˌmækoʊˈɛs/ MAK-oh-ESS), originally Mac OS X, previously ' +
              'shortened as OS X, is an operating system developed and marketed by Apple since 2001. It',
            sponsored: false,
          },
          {
            title: 'Linux',
            url: 'https://en.wikipedia.org/?curid=6097297',
            snippet:
              'Family of Unix-like operating systems. Linux (/ˈlɪnʊks/ LIN-uuks) is a family of open-source ' +
              'Unix-like operating systems based on the Linux kernel, an operating system kernel first released',
            sponsored: false,
          },
        ],
        more_results_available: true,
        untrusted_content: true,
      });
    });

    it('sends the longest allowed query although its request URL is longer than 2048 characters', async () => {
      server.respond = () => ({ headers: JSON_TYPE, body: '{"pages":[]}' });
      const query = '😀'.repeat(400);
      const response = await search({ query, engine: 'wikipedia' });
      expect(server.requests[0].path.length).toBeGreaterThan(4800);
      expect(new URL(server.requests[0].path, 'https://en.wikipedia.org').searchParams.get('q')).toBe(query);
      expect(response).toEqual({
        query,
        provider: 'wikipedia',
        results: [],
        more_results_available: false,
        untrusted_content: true,
      });
    });

    it('sends a 400-character query padded with whitespace, trimmed', async () => {
      server.respond = () => ({ headers: JSON_TYPE, body: '{"pages":[]}' });
      const query = 'q'.repeat(400);
      const response = await search({ query: ` \t${query}${' '.repeat(100)}\n`, engine: 'wikipedia' });
      expect(new URL(server.requests[0].path, 'https://en.wikipedia.org').searchParams.get('q')).toBe(query);
      expect(response).toMatchObject({ query, provider: 'wikipedia' });
    });

    it('reports no more results when exactly max_results pages came back', async () => {
      server.respond = () => ({
        headers: JSON_TYPE,
        body: readWebSearchFixture('wikipedia/search-page.linksto-shell-computing.limit5.json'),
      });
      const response = await search({ query: 'shell', engine: 'wikipedia', max_results: 5 });
      expect(server.requests[0].path).toBe('/w/rest.php/v1/search/page?q=shell&limit=6');
      expect(response.results).toHaveLength(5);
      expect(response.more_results_available).toBe(false);
    });

    it('drops pages whose id is not a positive integer and turns searchmatch markup into text', async () => {
      server.respond = () => ({
        headers: JSON_TYPE,
        body: readWebSearchFixture('derived/wikipedia-entities-and-malformed.json'),
      });
      const response = await search({ query: 'jupiter', engine: 'wikipedia', max_results: 10 });
      expect(response.results.map((result) => result.url)).toEqual([
        'https://en.wikipedia.org/?curid=38930',
        'https://en.wikipedia.org/?curid=12345',
        'https://en.wikipedia.org/?curid=67890',
      ]);
      expect(response.results[0].snippet).toBe(
        'fifth planet from the Sun and largest planet in the Solar System. Jupiter is the fifth planet from the ' +
          'Sun and the largest in the Solar System. It is a gas giant & more',
      );
    });
  });
});
