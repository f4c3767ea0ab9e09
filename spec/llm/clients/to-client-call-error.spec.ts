import { ToolCancelledError } from '../../../lib/errors/tool-cancelled-error';
import { ToolRuntimeError } from '../../../lib/errors/tool-runtime-error';
import { toClientCallError } from '../../../lib/llm/clients/to-client-call-error';

const KEY = 'plain-key-without-a-known-prefix';
const failure = {
  provider: 'anthropic',
  clientPackage: '@anthropic-ai/sdk',
  client: { apiKey: KEY },
  signal: undefined,
};

describe('toClientCallError', () => {
  it('scrubs the client apiKey even when it has no known key prefix', () => {
    const error = toClientCallError(Object.assign(new Error(`401 bad key ${KEY}`), { status: 401 }), failure);
    expect(error).toBeInstanceOf(ToolRuntimeError);
    expect(error.message).toBe(
      'Anthropic (through the @anthropic-ai/sdk client) answered HTTP 401: 401 bad key [redacted]. Check the API key the client was created with.',
    );
  });

  it('describes a thrown non-Error value and cuts a long message', () => {
    expect(toClientCallError('socket hang up', failure).message).toBe(
      "Anthropic (through the @anthropic-ai/sdk client) failed: socket hang up. Check the client's base URL, network and options, then try again.",
    );
    const long = toClientCallError(Object.assign(new Error('x'.repeat(2000)), { status: 500 }), failure);
    expect(long.message).toContain(`${'x'.repeat(500)}…`);
    expect(long.message).not.toContain('x'.repeat(501));
    expect(long).toMatchObject({ status: 500, retryable: true });
  });

  it('ignores a status that is not an HTTP status', () => {
    const error = toClientCallError(Object.assign(new Error('odd'), { status: 'teapot' }), failure);
    expect(error).toMatchObject({ status: undefined, retryable: true });
  });

  it('turns any failure of an aborted call into ToolCancelledError with the reason', () => {
    const controller = new AbortController();
    controller.abort(new Error('user pressed stop'));
    const error = toClientCallError(new Error('Request was aborted.'), {
      ...failure,
      signal: controller.signal,
    });
    expect(error).toBeInstanceOf(ToolCancelledError);
    expect(error).toMatchObject({
      message: 'The Anthropic request was canceled.',
      reason: 'user pressed stop',
    });
  });
});
