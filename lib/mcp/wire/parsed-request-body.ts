import type { IncomingMessage } from 'node:http';

/**
 * A body a framework's body parser already read: its JSON value or text, the fact that it is larger than
 * allowed, or the fact that the stream was consumed without leaving a body behind.
 */
export type ParsedRequestBody =
  | { readonly kind: 'json'; readonly value: unknown }
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'tooLarge' }
  | { readonly kind: 'consumed' };

/** What Express-style body parsers leave on the request. */
interface FrameworkRequest extends IncomingMessage {
  body?: unknown;
  _body?: boolean;
  rawBody?: unknown;
}

/**
 * Returns the body a framework already parsed (Express's `express.json()` sets `request.body`, older
 * parsers also `request._body = true`), or undefined when the stream is still unread and must be read.
 * The size limit is enforced as well as can be after the fact: on the declared `Content-Length`, else on
 * the raw body when the framework kept it (`rawBody`), else on the size of the parsed value re-serialized.
 */
export function parsedRequestBody(request: IncomingMessage, maxBytes: number): ParsedRequestBody | undefined {
  const framework = request as FrameworkRequest;
  const consumed = request.readableEnded || framework._body === true;
  if (!consumed) return undefined;
  const body = framework.body;
  if (body === undefined) return { kind: 'consumed' };
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) return { kind: 'tooLarge' };
  if (sizeOf(framework.rawBody, body) > maxBytes) return { kind: 'tooLarge' };
  if (typeof body === 'string') return { kind: 'text', text: body };
  if (Buffer.isBuffer(body)) return { kind: 'text', text: body.toString('utf8') };
  return { kind: 'json', value: body };
}

function sizeOf(raw: unknown, body: unknown): number {
  if (Buffer.isBuffer(raw)) return raw.length;
  if (Buffer.isBuffer(body)) return body.length;
  if (typeof body === 'string') return Buffer.byteLength(body);
  return Buffer.byteLength(JSON.stringify(body) ?? '');
}
