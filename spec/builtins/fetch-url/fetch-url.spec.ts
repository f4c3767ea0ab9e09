import * as net from 'node:net';
import * as iconv from 'iconv-lite';
import { ToolCancelledError } from '../../../lib/errors/tool-cancelled-error';
import { ToolDefinitionError } from '../../../lib/errors/tool-definition-error';
import { ToolRuntimeError } from '../../../lib/errors/tool-runtime-error';
import { ToolValidationError } from '../../../lib/errors/tool-validation-error';
import { fetchUrl } from '../../../lib/builtins/fetch-url/fetch-url';
import {
  PUBLIC_V4,
  PUBLIC_V4_B,
  PUBLIC_V6,
  buildTestSeams,
  startHttpTestServer,
} from '../../fixtures/net/test-http-server';
import type { RecordingSeams, TestServer } from '../../fixtures/net/test-http-server';

const PAGE = `<!doctype html><html><head><title>  The   &amp; Title </title><style>p{color:red}</style>
<script>alert("no")</script></head><body><h1>Heading</h1><p>First   paragraph
with <b>bold</b> text.</p><noscript>enable js</noscript><svg><title>icon</title><text>svg text</text></svg>
<ul><li>one</li><li>two</li></ul><template>hidden</template><div>caf&eacute; &lt;tag&gt;</div></body></html>`;

let server: TestServer;

beforeAll(async () => {
  server = await startHttpTestServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    const hops = Number(url.searchParams.get('hops') ?? '0');
    switch (url.pathname) {
      case '/page':
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        response.end(PAGE);
        return;
      case '/json':
        response.writeHead(200, { 'content-type': 'application/problem+json' });
        response.end('  {"a": 1}\n');
        return;
      case '/latin1':
        response.writeHead(200, { 'content-type': 'text/plain; charset="ISO-8859-1"' });
        response.end(iconv.encode('café crème', 'latin1'));
        return;
      case '/shift-jis':
        response.writeHead(200, { 'content-type': 'text/plain; charset=Shift_JIS' });
        response.end(iconv.encode('日本語のテキスト', 'shift_jis'));
        return;
      case '/utf16':
        response.writeHead(200, { 'content-type': 'text/plain; charset=utf-16le' });
        response.end(Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode('wide text', 'utf-16le')]));
        return;
      case '/invalid-utf8':
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.end(Buffer.from([0x61, 0xff, 0x62]));
        return;
      case '/emoji':
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.end('😀😀😀');
        return;
      case '/chain':
        if (hops > 0) {
          response.writeHead(hops % 2 === 0 ? 301 : 307, { location: `/chain?hops=${hops - 1}` });
          response.end();
          return;
        }
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.end('end of chain');
        return;
      case '/no-location':
        response.writeHead(302);
        response.end();
        return;
      case '/loop-a':
        response.writeHead(302, { location: '/loop-b' });
        response.end();
        return;
      case '/loop-b':
        response.writeHead(303, { location: 'http://site.example/loop-a' });
        response.end();
        return;
      case '/slow':
        setTimeout(() => {
          response.writeHead(200, { 'content-type': 'text/plain' });
          response.end('late');
        }, 2_000);
        return;
      default:
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.end(`host=${request.headers.host} encoding=${request.headers['accept-encoding']}`);
    }
  });
});

afterAll(async () => {
  await server.close();
});

function buildTool(hosts: Record<string, string[]> = {}): {
  tool: ReturnType<typeof fetchUrl>;
  seams: RecordingSeams;
} {
  const seams = buildTestSeams(
    { 'site.example': [PUBLIC_V4], 'secure.example': [PUBLIC_V4], 'v6.example': [PUBLIC_V6], ...hosts },
    { [PUBLIC_V4]: server, [PUBLIC_V6]: server },
  );
  return {
    tool: fetchUrl({ resolver: seams.resolver, connector: seams.connector, timeoutMs: 5_000 }),
    seams,
  };
}

describe('fetchUrl', () => {
  describe('fetchUrl()', () => {
    it('returns a fresh fetch_url tool with the contract name, tags, capability and metadata', () => {
      const first = fetchUrl();
      const second = fetchUrl();
      expect(first).not.toBe(second);
      expect(first.name).toBe('fetch_url');
      expect(first.tags).toEqual(['builtin', 'web', 'fetch', 'read-only']);
      expect(first.capabilities).toEqual(['network.read']);
      expect(first.metadata).toEqual({ builtin: { id: 'fetch_url', options: {} } });
      expect(first.examples).toEqual([{ url: 'https://docs.python.org/3/', max_chars: 12000 }]);
      expect(first.description).toMatch(/untrusted external content/u);
    });

    it('advertises url up to 2048 characters and max_chars from 1 to 50000, default 12000', () => {
      const schema = fetchUrl().inputSchema as {
        properties: Record<string, Record<string, unknown>>;
        required: string[];
      };
      expect(schema.properties.url).toMatchObject({ type: 'string', minLength: 1, maxLength: 2048 });
      expect(schema.properties.max_chars).toMatchObject({
        type: 'integer',
        minimum: 1,
        maximum: 50000,
        default: 12000,
      });
      expect(schema.required).toEqual(['url']);
      const output = fetchUrl().outputSchema as { required: string[]; additionalProperties: boolean };
      expect(output.required).toEqual([
        'url',
        'status',
        'content_type',
        'title',
        'text',
        'truncated',
        'untrusted_content',
      ]);
      expect(output.additionalProperties).toBe(false);
    });

    it('does no lookup and no connection when the tool is created', () => {
      const { seams } = buildTool();
      fetchUrl({ resolver: seams.resolver, connector: seams.connector });
      expect(seams.lookups).toEqual([]);
      expect(seams.targets).toEqual([]);
    });

    it.each([
      [{ resolver: 'dns' }, "the 'resolver' option must be a function when given, got string"],
      [{ connector: 42 }, "the 'connector' option must be a function when given, got number"],
      [
        { timeoutMs: 0 },
        "the 'timeoutMs' option must be an integer from 1 to 10000 (limits can only be tightened), got 0",
      ],
      [{ timeoutMs: 60_000 }, "the 'timeoutMs' option must be an integer from 1 to 10000"],
      [{ maxBytes: 2_000_000 }, "the 'maxBytes' option must be an integer from 1 to 1000000"],
      [{ maxBytes: 1.5 }, "the 'maxBytes' option must be an integer from 1 to 1000000"],
    ])('throws ToolDefinitionError for the option %j', (options, message) => {
      expect(() => fetchUrl(options as never)).toThrow(ToolDefinitionError);
      expect(() => fetchUrl(options as never)).toThrow(message);
    });
  });

  describe('call', () => {
    it('returns the readable text and title of an HTML page', async () => {
      const { tool } = buildTool();
      await expect(tool.call({ url: 'http://site.example/page#section' })).resolves.toEqual({
        url: 'http://site.example/page',
        status: 200,
        content_type: 'text/html',
        title: 'The & Title',
        text: 'Heading\nFirst paragraph with bold text.\none\ntwo\ncafé <tag>',
        truncated: false,
        untrusted_content: true,
      });
    });

    it('sends identity encoding and the URL host, and connects to the validated address on port 80', async () => {
      const { tool, seams } = buildTool();
      await expect(tool.call({ url: 'http://SITE.example./echo' })).resolves.toMatchObject({
        text: 'host=site.example encoding=identity',
        url: 'http://site.example/echo',
        title: '',
      });
      expect(seams.targets).toEqual([{ address: PUBLIC_V4, port: 80, hostname: 'site.example', tls: false }]);
    });

    it('connects HTTPS URLs on port 443 with tls set, through the connector', async () => {
      const { tool, seams } = buildTool();
      await expect(tool.call({ url: 'https://secure.example/echo' })).resolves.toMatchObject({
        url: 'https://secure.example/echo',
        text: 'host=secure.example encoding=identity',
      });
      expect(seams.targets).toEqual([
        { address: PUBLIC_V4, port: 443, hostname: 'secure.example', tls: true },
      ]);
    });

    it('reaches a public IPv6 address and a public IP literal', async () => {
      const { tool, seams } = buildTool();
      await expect(tool.call({ url: 'http://v6.example/echo' })).resolves.toMatchObject({ status: 200 });
      await expect(tool.call({ url: `http://${PUBLIC_V4}/echo` })).resolves.toMatchObject({ status: 200 });
      expect(seams.lookups).toEqual(['v6.example']);
      expect(seams.targets.map((target) => target.address)).toEqual([PUBLIC_V6, PUBLIC_V4]);
    });

    it('tries the next validated address when the first refuses the connection', async () => {
      const { tool, seams } = buildTool({ 'multi.example': [PUBLIC_V4_B, PUBLIC_V4] });
      await expect(tool.call({ url: 'http://multi.example/echo' })).resolves.toMatchObject({ status: 200 });
      expect(seams.targets.map((target) => target.address)).toEqual([PUBLIC_V4_B, PUBLIC_V4]);
    });

    it('returns JSON bodies trimmed, with the media type lower-case and without parameters', async () => {
      const { tool } = buildTool();
      await expect(tool.call({ url: 'http://site.example/json' })).resolves.toMatchObject({
        content_type: 'application/problem+json',
        title: '',
        text: '{"a": 1}',
      });
    });

    it.each([
      ['/latin1', 'café crème'],
      ['/shift-jis', '日本語のテキスト'],
      ['/utf16', 'wide text'],
      ['/invalid-utf8', 'a\ufffdb'],
    ])('decodes the charset of %s', async (path, text) => {
      const { tool } = buildTool();
      await expect(tool.call({ url: `http://site.example${path}` })).resolves.toMatchObject({
        text,
        truncated: false,
      });
    });

    it('cuts the text at max_chars code points and marks it truncated', async () => {
      const { tool } = buildTool();
      await expect(tool.call({ url: 'http://site.example/emoji', max_chars: 2 })).resolves.toMatchObject({
        text: '😀😀',
        truncated: true,
      });
      await expect(tool.call({ url: 'http://site.example/emoji', max_chars: 3 })).resolves.toMatchObject({
        text: '😀😀😀',
        truncated: false,
      });
    });

    it('follows 4 redirects and returns the final URL', async () => {
      const { tool } = buildTool();
      await expect(tool.call({ url: 'http://site.example/chain?hops=4' })).resolves.toMatchObject({
        url: 'http://site.example/chain?hops=0',
        text: 'end of chain',
      });
    });

    it('throws ToolRuntimeError on a fifth redirect', async () => {
      const { tool } = buildTool();
      const call = tool.call({ url: 'http://site.example/chain?hops=5' });
      await expect(call).rejects.toThrow(ToolRuntimeError);
      await expect(call).rejects.toThrow(
        'fetch_url: exceeded the 4-redirect limit (last hop: http://site.example/chain?hops=1).',
      );
    });

    it('throws ToolRuntimeError for a redirect loop', async () => {
      const { tool } = buildTool();
      await expect(tool.call({ url: 'http://site.example/loop-a' })).rejects.toThrow(
        'fetch_url: redirect loop: http://site.example/loop-b redirects back to http://site.example/loop-a.',
      );
    });

    it('throws ToolRuntimeError for a redirect without Location', async () => {
      const { tool } = buildTool();
      const call = tool.call({ url: 'http://site.example/no-location' });
      await expect(call).rejects.toThrow(ToolRuntimeError);
      await expect(call).rejects.toThrow('answered with a redirect (HTTP 302) but no Location header.');
    });

    it('throws ToolCancelledError when the signal aborts while waiting for the response', async () => {
      const { tool } = buildTool();
      const controller = new AbortController();
      const started = Date.now();
      setTimeout(() => controller.abort(new Error('user stopped')), 50);
      const call = tool.call({ url: 'http://site.example/slow' }, { signal: controller.signal });
      await expect(call).rejects.toThrow(ToolCancelledError);
      await expect(call).rejects.toThrow('fetch_url: the request to http://site.example/slow was cancelled.');
      expect(Date.now() - started).toBeLessThan(1_500);
    });

    it('throws ToolCancelledError without connecting when the signal is already aborted', async () => {
      const { tool, seams } = buildTool();
      const controller = new AbortController();
      controller.abort();
      await expect(
        tool.call({ url: 'http://site.example/echo' }, { signal: controller.signal }),
      ).rejects.toThrow(ToolCancelledError);
      expect(seams.targets).toEqual([]);
    });

    it('throws ToolRuntimeError when the deadline passes before the headers', async () => {
      const seams = buildTestSeams({ 'site.example': [PUBLIC_V4] }, { [PUBLIC_V4]: server });
      const tool = fetchUrl({ resolver: seams.resolver, connector: seams.connector, timeoutMs: 300 });
      await expect(tool.call({ url: 'http://site.example/slow' })).rejects.toThrow(
        'fetch_url: the request to http://site.example/slow did not finish within the 300 ms deadline.',
      );
    });

    it.each([
      [{ url: 'http://site.example/' + 'a'.repeat(2048) }, 'url'],
      [{ url: '' }, 'url'],
      [{ url: 'http://site.example/', max_chars: 0 }, 'max_chars'],
      [{ url: 'http://site.example/', max_chars: 50_001 }, 'max_chars'],
      [{ url: 'http://site.example/', extra: true }, 'extra'],
      [{}, 'url'],
    ])('throws ToolValidationError for the arguments %#', async (args, path) => {
      const { tool, seams } = buildTool();
      const call = tool.call(args);
      await expect(call).rejects.toThrow(ToolValidationError);
      await expect(call).rejects.toThrow(path);
      expect(seams.lookups).toEqual([]);
    });

    it('accepts a plain socket from a custom connector that ignores the target', async () => {
      const tool = fetchUrl({
        resolver: async () => [PUBLIC_V4],
        connector: () => net.connect(server.port, '127.0.0.1'),
      });
      await expect(tool.call({ url: 'http://site.example/echo' })).resolves.toMatchObject({ status: 200 });
    });
  });
});
