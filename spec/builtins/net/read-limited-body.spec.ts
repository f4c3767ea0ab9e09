import { PassThrough, Readable } from 'node:stream';
import { ToolRuntimeError } from '../../../lib/errors/tool-runtime-error';
import { buildTooLargeError, readLimitedBody } from '../../../lib/builtins/net/read-limited-body';

const signal = new AbortController().signal;

describe('readLimitedBody', () => {
  it('returns the whole body when it fits', async () => {
    await expect(
      readLimitedBody(Readable.from([Buffer.from('ab'), 'cd']), { maxBytes: 4, truncate: false, signal }),
    ).resolves.toEqual({
      body: Buffer.from('abcd'),
      truncated: false,
    });
  });

  it('cuts the body at maxBytes and destroys the stream when truncate is true', async () => {
    const stream = new PassThrough();
    stream.write('abc');
    stream.write('defgh');
    const result = await readLimitedBody(stream, { maxBytes: 5, truncate: true, signal });
    expect(result).toEqual({ body: Buffer.from('abcde'), truncated: true });
    expect(stream.destroyed).toBe(true);
  });

  it('throws ToolRuntimeError naming the tool and provider when the body is too long and truncate is false', async () => {
    const stream = new PassThrough();
    stream.write('abcdef');
    const call = readLimitedBody(stream, {
      maxBytes: 5,
      truncate: false,
      signal,
      toolName: 'fetch_url',
      provider: 'p',
    });
    await expect(call).rejects.toThrow(ToolRuntimeError);
    await expect(call).rejects.toThrow('fetch_url: the response is larger than the limit of 5 bytes.');
    expect(stream.destroyed).toBe(true);
  });

  it('rejects with the signal reason and destroys the stream when the signal aborts', async () => {
    const controller = new AbortController();
    const stream = new PassThrough();
    const call = readLimitedBody(stream, { maxBytes: 5, truncate: false, signal: controller.signal });
    controller.abort('stop');
    await expect(call).rejects.toBe('stop');
    expect(stream.destroyed).toBe(true);
  });

  it('rejects with the request failure when the stream closes early', async () => {
    const stream = new PassThrough();
    const failure = new Error('parse error');
    const call = readLimitedBody(stream, { maxBytes: 5, truncate: false, signal, failure: () => failure });
    stream.destroy();
    await expect(call).rejects.toBe(failure);
  });

  it('rejects with ECONNRESET when the stream closes early without a known failure', async () => {
    const stream = new PassThrough();
    const call = readLimitedBody(stream, { maxBytes: 5, truncate: false, signal });
    stream.destroy();
    await expect(call).rejects.toMatchObject({
      code: 'ECONNRESET',
      message: 'the connection closed before the body ended',
    });
  });
});

describe('buildTooLargeError', () => {
  it('builds a ToolRuntimeError that says how to fix the call', () => {
    const error = buildTooLargeError({ maxBytes: 10, provider: 'wikipedia' });
    expect(error).toBeInstanceOf(ToolRuntimeError);
    expect(error.provider).toBe('wikipedia');
    expect(error.message).toBe(
      'the response is larger than the limit of 10 bytes. Fetch a smaller page or a more specific URL.',
    );
  });
});
