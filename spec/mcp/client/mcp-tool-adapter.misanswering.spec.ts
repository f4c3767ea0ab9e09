import 'reflect-metadata';
import { ToolRuntimeError } from '../../../lib/errors/tool-runtime-error';
import { MCPToolAdapter } from '../../../lib/mcp/client';
import type { MCPToolAdapterOptions } from '../../../lib/mcp/client';
import {
  misansweringServerStdio,
  startMisansweringHttpServer,
} from '../../fixtures/mcp/misanswering-server-options';
import type { RunningMisansweringServer } from '../../fixtures/mcp/misanswering-server-options';

// No request may wait for the adapter's timeout here: it is set far beyond jest's own, so an answer the adapter
// failed to refuse fails the test by jest's timeout instead of passing as a (late) timeout error.
jest.setTimeout(60_000);
const NEVER_MS = 3_600_000;

async function failure(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ToolRuntimeError);
  expect((error as ToolRuntimeError).provider).toBe('misanswering');
  return error as Error;
}

const asked = (uri: string) => `MCP server 'misanswering', asked for the resource "${uri}",`;
const tooDeep = (method: string) =>
  `MCP server 'misanswering' answered ${method} with an answer nested deeper than 1000 levels (maxMessageDepth); ` +
  'the answer was refused. Raise maxMessageDepth if answers of that server are that deep.';

describe.each([
  ['stdio', undefined],
  ['streamable HTTP, JSON bodies', false],
  ['streamable HTTP, event streams', true],
] as const)('MCPToolAdapter against a server that answers wrongly, over %s', (_label, events) => {
  let server: RunningMisansweringServer | undefined;
  let adapter: MCPToolAdapter;
  const options: Partial<MCPToolAdapterOptions> = { timeoutMs: NEVER_MS };

  beforeAll(async () => {
    if (events === undefined) {
      adapter = new MCPToolAdapter(misansweringServerStdio(options));
      return;
    }
    server = await startMisansweringHttpServer(events);
    adapter = new MCPToolAdapter({
      transport: 'http',
      url: server.url,
      serverName: 'misanswering',
      ...options,
    });
  });

  afterAll(async () => {
    await adapter.close();
    await server?.stop();
  });

  describe('readResource', () => {
    it('returns the contents of the URI read and of sub-resources under it', async () => {
      expect((await adapter.readResource('memo://fine')).contents).toEqual([
        { uri: 'memo://fine', text: 'Contents of memo://fine' },
      ]);
      expect((await adapter.readResource('memo://folder')).contents).toEqual([
        { uri: 'memo://folder/a.txt', text: 'a' },
        { uri: 'memo://folder/sub/b.txt', text: 'b' },
      ]);
    });

    it('refuses contents labelled with another URI, naming the URI asked for and the one answered', async () => {
      const error = await failure(adapter.readResource('memo://shadow'));
      expect(error.message).toBe(
        `${asked('memo://shadow')} sent contents[0] labelled "file:///etc/shadow", which is neither that URI nor a ` +
          'sub-resource under it; the answer was refused.',
      );
      expect(error.message).not.toContain('root:');
    });

    it('refuses a "sub-resource" that climbs out with encoded dot segments, and a mere string prefix', async () => {
      expect((await failure(adapter.readResource('memo://escape'))).message).toBe(
        `${asked('memo://escape')} sent contents[0] labelled "memo://escape/%2E%2E/%2E%2E/etc/shadow", which is ` +
          'neither that URI nor a sub-resource under it; the answer was refused.',
      );
      expect((await failure(adapter.readResource('memo://prefix'))).message).toContain(
        'labelled "memo://prefix-other", which is neither that URI nor a sub-resource under it',
      );
    });

    it('refuses an answer nested 5,000 levels deep at once, and the session carries on', async () => {
      expect((await failure(adapter.readResource('memo://deep'))).message).toBe(tooDeep('resources/read'));
      expect((await adapter.readResource('memo://fine')).contents).toHaveLength(1);
    });

    it('refuses an answer that is no valid JSON-RPC response at once (it no longer waits for timeoutMs)', async () => {
      expect((await failure(adapter.readResource('memo://invalid'))).message).toBe(
        "MCP server 'misanswering' answered resources/read with an answer that is not a valid JSON-RPC message " +
          '(result._meta: Invalid input: expected object, received array); the answer was refused.',
      );
      expect((await adapter.readResource('memo://fine')).contents).toHaveLength(1);
    });
  });

  describe('tool calls', () => {
    it('refuses structured content nested 5,000 levels deep at once with a ToolRuntimeError, not a RangeError', async () => {
      const error = await failure(adapter.getCallable('deep_result')({}));
      expect(error.message).toBe(
        `MCP tool 'deep_result' on server 'misanswering' failed: ${tooDeep('tools/call')}`,
      );
      await expect(adapter.getCallable('echo')({})).resolves.toBe('echoed');
    });

    it('refuses a result that is an array nested 5,000 levels deep at once', async () => {
      const error = await failure(adapter.getCallable('array_result')({}));
      expect(error.message).toBe(
        `MCP tool 'array_result' on server 'misanswering' failed: ${tooDeep('tools/call')}`,
      );
    });

    if (events !== false) {
      it("answers the server's own request nested 5,000 levels deep with an error instead of handling it", async () => {
        await expect(adapter.getCallable('deep_request')({})).resolves.toBe(
          'the client answered: {"code":-32600,"message":"The client refused a request nested deeper than 1000 ' +
            'levels (maxMessageDepth)."}',
        );
      });
    }
  });
});

describe('MCPToolAdapter maxMessageDepth', () => {
  it('accepts the deep answers when raised above their depth', async () => {
    const adapter = new MCPToolAdapter(
      misansweringServerStdio({ timeoutMs: NEVER_MS, maxMessageDepth: 50, env: { MISANSWER_DEPTH: '40' } }),
    );
    try {
      await expect(adapter.readResource('memo://deep')).resolves.toEqual({
        uri: 'memo://deep',
        contents: [{ uri: 'memo://deep', text: 'deep' }],
        truncated: false,
      });
      const deep = (await adapter.getCallable('deep_result')({})) as { value: unknown };
      expect(JSON.stringify(deep.value)).toBe(`${'{"a":'.repeat(40)}0${'}'.repeat(40)}`);
    } finally {
      await adapter.close();
    }
  });

  it('refuses an answer just past a lowered bound', async () => {
    const adapter = new MCPToolAdapter(
      misansweringServerStdio({ timeoutMs: NEVER_MS, maxMessageDepth: 50, env: { MISANSWER_DEPTH: '60' } }),
    );
    try {
      expect((await failure(adapter.readResource('memo://deep'))).message).toContain(
        'nested deeper than 50 levels (maxMessageDepth)',
      );
    } finally {
      await adapter.close();
    }
  });
});
