import type { Readable } from 'node:stream';
import { ToolRuntimeError } from '../../errors/tool-runtime-error';

/** Options of {@link readLimitedBody}. */
export interface ReadLimitedBodyOptions {
  /** Most bytes kept. */
  maxBytes: number;
  /** Keep the first `maxBytes` and report `truncated` (true), or fail when the body is longer (false). */
  truncate: boolean;
  /** Destroys the stream and rejects with the signal's reason when it aborts. */
  signal: AbortSignal;
  /** The tool named in error messages. */
  toolName?: string;
  /** The provider named in runtime errors. */
  provider?: string;
  /** Returns the transport error seen on the request, if any, to report instead of a bare close. */
  failure?: () => unknown;
}

/**
 * Reads a response body while counting bytes as they arrive, so memory never holds more than `maxBytes`
 * (plus one chunk): an endless or oversized body is cut off or refused at the limit, never buffered.
 *
 * @throws ToolRuntimeError when the body is longer than `maxBytes` and `truncate` is false.
 * @throws the stream's own error (a transport failure) or the signal's reason.
 */
export function readLimitedBody(
  stream: Readable,
  options: ReadLimitedBodyOptions,
): Promise<{ body: Buffer; truncated: boolean }> {
  const { maxBytes, signal } = options;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (finish: () => void): void => {
      if (settled) return;
      settled = true;
      stream.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      signal.removeEventListener('abort', onAbort);
      finish();
    };
    const onData = (chunk: Buffer | string): void => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      if (size + bytes.length > maxBytes) {
        if (options.truncate) chunks.push(bytes.subarray(0, maxBytes - size));
        stream.destroy();
        settle(() =>
          options.truncate
            ? resolve({ body: Buffer.concat(chunks, maxBytes), truncated: true })
            : reject(buildTooLargeError(options)),
        );
        return;
      }
      chunks.push(bytes);
      size += bytes.length;
    };
    const onEnd = (): void => settle(() => resolve({ body: Buffer.concat(chunks, size), truncated: false }));
    const onError = (error: Error): void => settle(() => reject(options.failure?.() ?? error));
    // The parser's own error (bad chunking…) may reach the request just after the body closes: give it a turn.
    const onClose = (): void => {
      setImmediate(() =>
        settle(() =>
          reject(
            options.failure?.() ??
              Object.assign(new Error('the connection closed before the body ended'), { code: 'ECONNRESET' }),
          ),
        ),
      );
    };
    const onAbort = (): void => {
      stream.destroy();
      settle(() => reject(signal.reason));
    };
    if (signal.aborted) {
      onAbort();
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    stream.on('data', onData).once('end', onEnd).once('error', onError).once('close', onClose);
  });
}

/** The error for a body longer than the byte limit (also used when `Content-Length` announces one). */
export function buildTooLargeError(options: {
  maxBytes: number;
  toolName?: string;
  provider?: string;
}): ToolRuntimeError {
  return new ToolRuntimeError(
    `${options.toolName === undefined ? '' : `${options.toolName}: `}the response is larger than the limit of ` +
      `${options.maxBytes} bytes. Fetch a smaller page or a more specific URL.`,
    { toolName: options.toolName, provider: options.provider },
  );
}
