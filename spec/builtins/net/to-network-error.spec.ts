import { ToolRuntimeError } from '../../../lib/errors/tool-runtime-error';
import { toNetworkError } from '../../../lib/builtins/net/to-network-error';

function withCode(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

describe('toNetworkError', () => {
  it('returns a ToolRuntimeError unchanged', () => {
    const error = new ToolRuntimeError('already');
    expect(toNetworkError(error, 'http://a.example/', {})).toBe(error);
  });

  it.each([
    [
      withCode('Parse Error', 'HPE_INVALID_CHUNK_SIZE'),
      'fetch_url: the server at U sent a malformed HTTP response (HPE_INVALID_CHUNK_SIZE); it was refused.',
      false,
    ],
    [
      withCode('reset', 'ECONNRESET'),
      'fetch_url: the connection to U closed before the response was complete (ECONNRESET).',
      true,
    ],
    [withCode('refused', 'ECONNREFUSED'), 'fetch_url: could not connect to U (ECONNREFUSED).', true],
    [
      withCode('bad cert', 'ERR_TLS_CERT_ALTNAME_INVALID'),
      'fetch_url: the TLS connection to U failed (ERR_TLS_CERT_ALTNAME_INVALID); the certificate or handshake was not accepted.',
      false,
    ],
    [
      new Error('maxContentLength size of 7 exceeded'),
      'fetch_url: the response is larger than the limit of 7 bytes. Fetch a smaller page or a more specific URL.',
      false,
    ],
    [new Error('odd\u0000failure'), 'fetch_url: the request to U failed: odd?failure.', true],
    ['a string', 'fetch_url: the request to U failed: a string.', true],
  ])('explains %p', (error, message, retryable) => {
    const mapped = toNetworkError(error, 'U', { toolName: 'fetch_url', maxBytes: 7, provider: 'x' });
    expect(mapped).toBeInstanceOf(ToolRuntimeError);
    expect(mapped.message).toBe(message);
    expect(mapped.retryable).toBe(retryable);
    expect(mapped.provider).toBe('x');
    expect(mapped.cause).toBe(error);
  });

  it('finds the code on a wrapped cause', () => {
    const wrapped = Object.assign(new Error('outer'), {
      code: 'ERR_BAD_RESPONSE',
      cause: withCode('inner', 'HPE_HEADER_OVERFLOW'),
    });
    expect(toNetworkError(wrapped, 'U', {}).message).toBe(
      'the server at U sent a malformed HTTP response (HPE_HEADER_OVERFLOW); it was refused.',
    );
  });
});
