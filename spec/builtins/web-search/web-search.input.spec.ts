import { Agent } from '../../../lib/agents/agent';
import { ActionDeniedError } from '../../../lib/errors/action-denied-error';
import { ToolInputError } from '../../../lib/errors/tool-input-error';
import { ToolValidationError } from '../../../lib/errors/tool-validation-error';
import { ToolDefinitionError } from '../../../lib/errors/tool-definition-error';
import { CapabilityPolicy } from '../../../lib/policy/capability-policy';
import type { NetworkSeams } from '../../../lib/builtins/net/network-seams';
import { webSearch } from '../../../lib/builtins/web-search/web-search';
import type { WebSearchResponse } from '../../../lib/builtins/web-search/web-search-types';
import { SearchTestServer, generateTestCertificate } from '../../fixtures/web-search/search-test-server';

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

/** An error class to expect (constructors differ, so only `prototype` matters). */
type ErrorClass = abstract new (...args: never[]) => Error;

async function expectNoRequest(args: Record<string, unknown>, errorClass: ErrorClass, message: RegExp) {
  const call = search(args);
  await expect(call).rejects.toBeInstanceOf(errorClass);
  await expect(call).rejects.toThrow(message);
  expect(server.resolved).toEqual([]);
  expect(server.targets).toEqual([]);
  expect(server.connections).toBe(0);
}

describe('webSearch', () => {
  describe('webSearch()', () => {
    it('returns a fresh tool with the SPEC name, tags, capability and schemas each time', () => {
      const first = webSearch();
      const second = webSearch();
      expect(first).not.toBe(second);
      expect(first.name).toBe('web_search');
      expect(first.tags).toEqual(['builtin', 'web', 'search', 'read-only']);
      expect(first.capabilities).toEqual(['network.read']);
      expect(first.description).toMatch(/brave/u);
      expect(first.description).toMatch(/duckduckgo/u);
      expect(first.description).toMatch(/wikipedia/u);
      expect(first.description).toMatch(/untrusted/u);
      expect(first.inputSchema).toMatchObject({
        properties: {
          query: {
            type: 'string',
            minLength: 1,
            description: 'What to search for: 1–400 characters after trimming, at most 50 words.',
          },
          max_results: { type: 'integer', minimum: 1, maximum: 10, default: 5 },
          freshness: { enum: ['any', 'day', 'week', 'month', 'year'], default: 'any' },
          engine: { enum: ['brave', 'duckduckgo', 'wikipedia'], default: 'brave' },
        },
        required: ['query'],
        additionalProperties: false,
      });
      // The 400-character limit applies after trimming (checked by the tool), so the schema sets none on the raw text.
      expect((first.inputSchema as { properties: { query: object } }).properties.query).not.toHaveProperty(
        'maxLength',
      );
      expect(first.outputSchema).toMatchObject({
        required: ['query', 'provider', 'results', 'more_results_available', 'untrusted_content'],
        additionalProperties: false,
      });
      expect(first.examples).toEqual([
        { query: 'Python structured concurrency', max_results: 5, freshness: 'month' },
        { query: 'Python structured concurrency', max_results: 5, engine: 'duckduckgo' },
        { query: 'Python structured concurrency', max_results: 5, engine: 'wikipedia' },
      ]);
    });

    it('reads no environment variable and makes no request when it is created', () => {
      const reads: PropertyKey[] = [];
      const environment = process.env;
      process.env = new Proxy(environment, {
        get(target, property) {
          reads.push(property);
          return Reflect.get(target, property) as unknown;
        },
      });
      try {
        webSearch(server.seams());
      } finally {
        process.env = environment;
      }
      expect(reads).toEqual([]);
      expect(server.connections).toBe(0);
      expect(server.resolved).toEqual([]);
    });

    it('throws ToolDefinitionError when a seam is not a function', () => {
      expect(() => webSearch({ resolver: 'dns' as never })).toThrow(ToolDefinitionError);
      expect(() => webSearch({ connector: 42 as never })).toThrow(
        "webSearch(): the 'connector' option must be a function when given, got number.",
      );
    });
  });

  describe('call() with bad input', () => {
    it.each<[string, Record<string, unknown>, ErrorClass, RegExp]>([
      ['an empty query', { query: '', engine: 'wikipedia' }, ToolValidationError, /query/u],
      [
        'a blank query',
        { query: '   \t ', engine: 'wikipedia' },
        ToolInputError,
        /web search query must not be empty/u,
      ],
      [
        'a query of 401 characters',
        { query: 'a'.repeat(401), engine: 'wikipedia' },
        ToolInputError,
        /the query has 401 characters after trimming; it must not exceed 400\. Shorten it\./u,
      ],
      [
        'a padded query of 401 characters after trimming',
        { query: `  ${'a'.repeat(401)}\n`, engine: 'wikipedia' },
        ToolInputError,
        /the query has 401 characters after trimming; it must not exceed 400\. Shorten it\./u,
      ],
      [
        'a query of 51 words',
        { query: Array.from({ length: 51 }, () => 'w').join(' '), engine: 'wikipedia' },
        ToolInputError,
        /must not exceed 50 words/u,
      ],
      [
        'max_results 0',
        { query: 'x', max_results: 0, engine: 'wikipedia' },
        ToolValidationError,
        /max_results/u,
      ],
      [
        'max_results 11',
        { query: 'x', max_results: 11, engine: 'wikipedia' },
        ToolValidationError,
        /max_results/u,
      ],
      [
        'max_results 2.5',
        { query: 'x', max_results: 2.5, engine: 'wikipedia' },
        ToolValidationError,
        /max_results/u,
      ],
      [
        'an unknown freshness',
        { query: 'x', freshness: 'hour', engine: 'duckduckgo' },
        ToolValidationError,
        /freshness/u,
      ],
      ['an unknown engine', { query: 'x', engine: 'google' }, ToolValidationError, /engine/u],
      ['an unknown argument', { query: 'x', engine: 'wikipedia', lang: 'de' }, ToolValidationError, /lang/u],
      [
        "freshness 'week' for wikipedia",
        { query: 'x', freshness: 'week', engine: 'wikipedia' },
        ToolInputError,
        /engine='wikipedia' supports only freshness='any' \(got 'week'\)/u,
      ],
    ])('throws before any request for %s', async (_label, args, errorClass, message) => {
      await expectNoRequest(args, errorClass, message);
    });

    it('throws ToolInputError naming BRAVE_SEARCH_API_KEY when the key is missing, without falling back', async () => {
      await expectNoRequest(
        { query: 'semantic kernel' },
        ToolInputError,
        /engine 'brave' needs an API key in the environment variable BRAVE_SEARCH_API_KEY, which is not set.*no automatic fallback/u,
      );
    });

    it('throws ToolInputError when the key is only whitespace', async () => {
      process.env.BRAVE_SEARCH_API_KEY = '   ';
      await expectNoRequest(
        { query: 'x', engine: 'brave' },
        ToolInputError,
        /BRAVE_SEARCH_API_KEY, which is not set/u,
      );
    });

    it.each([
      ['a space inside', 'abc def-secret-part'],
      ['a control character', 'abc\u0007secret-part'],
      ['a non-ASCII letter', 'abcé-secret-part'],
      ['513 characters', `secret-part${'k'.repeat(502)}`],
    ])('throws ToolInputError for a key with %s and never shows the key', async (_label, key) => {
      process.env.BRAVE_SEARCH_API_KEY = key;
      const call = search({ query: 'x', engine: 'brave' });
      await expect(call).rejects.toBeInstanceOf(ToolInputError);
      await expect(call).rejects.toThrow(/BRAVE_SEARCH_API_KEY contains invalid characters/u);
      const error = (await call.catch((caught: unknown) => caught)) as Error;
      expect(error.message).not.toContain('secret-part');
      expect(JSON.stringify(error)).not.toContain('secret-part');
      expect(server.connections).toBe(0);
    });
  });

  describe('call() through an Agent', () => {
    function buildAgent(effect: 'allow' | 'deny'): Agent {
      return new Agent({
        card: { name: 'searcher', description: 'Searches', url: 'http://127.0.0.1:8080' },
        policy: new CapabilityPolicy({ 'network.read': effect }),
        tools: [webSearch(server.seams())],
      });
    }

    it('is denied by a policy that denies network.read, before any request', async () => {
      const call = buildAgent('deny').callTool('web_search', { query: 'jupiter', engine: 'wikipedia' });
      await expect(call).rejects.toBeInstanceOf(ActionDeniedError);
      await expect(call).rejects.toThrow("Action 'web_search' denied: Denied capabilities: network.read");
      expect(server.resolved).toEqual([]);
      expect(server.connections).toBe(0);
    });

    it('runs when the policy allows network.read', async () => {
      server.respond = () => ({ headers: { 'content-type': 'application/json' }, body: '{"pages":[]}' });
      await expect(
        buildAgent('allow').callTool('web_search', { query: 'jupiter', engine: 'wikipedia' }),
      ).resolves.toEqual({
        query: 'jupiter',
        provider: 'wikipedia',
        results: [],
        more_results_available: false,
        untrusted_content: true,
      });
      expect(server.connections).toBe(1);
    });
  });
});
