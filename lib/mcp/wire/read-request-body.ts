import type { IncomingMessage } from 'node:http';

/** What reading a request body gave: its text, or the fact that it was larger than allowed. */
export type RequestBody = { readonly tooLarge: false; readonly text: string } | { readonly tooLarge: true };

/**
 * Reads a request body as UTF-8, counting bytes as they arrive: a declared `Content-Length` over
 * `maxBytes` is refused before reading, and reading stops as soon as the count passes `maxBytes`.
 */
export function readRequestBody(request: IncomingMessage, maxBytes: number): Promise<RequestBody> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.resolve({ tooLarge: true });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (body: RequestBody | Error) => {
      if (settled) return;
      settled = true;
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onError);
      if (body instanceof Error) reject(body);
      else resolve(body);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        chunks.length = 0;
        finish({ tooLarge: true });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => finish({ tooLarge: false, text: Buffer.concat(chunks, size).toString('utf8') });
    const onError = (error: Error) => finish(error);
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onError);
  });
}
