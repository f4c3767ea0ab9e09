import { ToolInputError } from '../errors/tool-input-error';

/**
 * One part of a tool's rich result, shaped like MCP's content blocks (`text`, `image`, `audio`,
 * `resource`, `resource_link`). Binary data is base64 text.
 */
export type ToolContentPart =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'audio'; data: string; mimeType: string }
  | {
      type: 'resource';
      resource:
        { uri: string; mimeType?: string; text: string } | { uri: string; mimeType?: string; blob: string };
    }
  | {
      type: 'resource_link';
      uri: string;
      name: string;
      title?: string;
      description?: string;
      mimeType?: string;
      size?: number;
    };

/** What `ToolResult.resource` takes: a URI and exactly one of `text` or `blob`. */
export interface ResourceInput {
  /** The resource's URI, with a scheme (`file:///report.pdf`, `memo://42`). */
  uri: string;
  /** Its MIME type, e.g. `application/pdf`. */
  mimeType?: string;
  /** Its text, for a text resource. */
  text?: string;
  /** Its bytes (or their base64 text), for a binary resource. */
  blob?: Uint8Array | string;
}

/** What `ToolResult.resourceLink` takes. */
export interface ResourceLinkInput {
  /** The resource's URI, with a scheme. */
  uri: string;
  /** A programmatic name for it. */
  name: string;
  /** A human-readable title. */
  title?: string;
  /** What it is. */
  description?: string;
  /** Its MIME type. */
  mimeType?: string;
  /** Its size in bytes. */
  size?: number;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
// RFC 6838 type/subtype tokens, then optional parameters.
const MIME_TYPE = /^([A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*)\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*(\s*;.*)?$/;
const URI_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/**
 * Returns a checked, frozen copy of a content part; a string becomes a text part.
 *
 * @throws ToolInputError when the part is malformed; `where` names the caller in the message.
 */
export function toContentPart(value: unknown, where: string): ToolContentPart {
  if (typeof value === 'string') return Object.freeze({ type: 'text', text: value });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ToolInputError(
      `${where} must be a string, a ToolResult or a content part ({ type: 'text' | 'image' | 'audio' | 'resource' | 'resource_link', … }); got ${describe(value)}.`,
    );
  }
  const part = value as Record<string, unknown>;
  switch (part.type) {
    case 'text':
      if (typeof part.text !== 'string')
        throw new ToolInputError(`${where}: a text part needs { type: 'text', text: string }.`);
      return Object.freeze({ type: 'text', text: part.text });
    case 'image':
    case 'audio':
      if (typeof part.data !== 'string') {
        throw new ToolInputError(
          `${where}: an ${part.type} part needs base64 text in 'data'; use ToolResult.${part.type}(bytes, mimeType) to encode bytes.`,
        );
      }
      return toDataPart(part.type, part.data, part.mimeType as string);
    case 'resource':
      if (typeof part.resource !== 'object' || part.resource === null)
        throw new ToolInputError(
          `${where}: a resource part needs { type: 'resource', resource: { uri, text | blob } }.`,
        );
      return toResourcePart(part.resource as ResourceInput);
    case 'resource_link':
      return toResourceLinkPart(part as unknown as ResourceLinkInput);
    default:
      throw new ToolInputError(
        `${where} has an unknown content type ${JSON.stringify(part.type)}; use 'text', 'image', 'audio', 'resource' or 'resource_link'.`,
      );
  }
}

/**
 * Returns a frozen image or audio part.
 *
 * @throws ToolInputError when the data is empty or not base64, or the MIME type is not of the family.
 */
export function toDataPart(
  type: 'image' | 'audio',
  data: Uint8Array | string,
  mimeType: string,
): ToolContentPart {
  const where = `ToolResult.${type}`;
  assertMimeType(mimeType, where, type);
  return Object.freeze({ type, data: toBase64(data, where, 'data'), mimeType });
}

/**
 * Returns a frozen embedded-resource part.
 *
 * @throws ToolInputError when the URI is missing, both or neither of text/blob are given, the blob is not
 * base64, or the MIME type is malformed.
 */
export function toResourcePart(input: ResourceInput): ToolContentPart {
  const where = 'ToolResult.resource';
  if (typeof input !== 'object' || input === null)
    throw new ToolInputError(`${where} needs { uri, text } or { uri, blob }; got ${describe(input)}.`);
  assertUri(input.uri, where);
  if (input.mimeType !== undefined) assertMimeType(input.mimeType, where);
  const hasText = input.text !== undefined;
  const hasBlob = input.blob !== undefined;
  if (hasText === hasBlob) {
    throw new ToolInputError(
      `${where} for '${input.uri}' needs exactly one of 'text' (a text resource) or 'blob' (bytes or base64); it got ${hasText ? 'both' : 'neither'}.`,
    );
  }
  const base = { uri: input.uri, ...(input.mimeType !== undefined ? { mimeType: input.mimeType } : {}) };
  if (hasText) {
    if (typeof input.text !== 'string')
      throw new ToolInputError(
        `${where} for '${input.uri}': 'text' must be a string; got ${describe(input.text)}.`,
      );
    return Object.freeze({ type: 'resource', resource: Object.freeze({ ...base, text: input.text }) });
  }
  const blob = toBase64(input.blob as Uint8Array | string, where, 'blob');
  return Object.freeze({ type: 'resource', resource: Object.freeze({ ...base, blob }) });
}

/**
 * Returns a frozen resource-link part.
 *
 * @throws ToolInputError when the URI or name is missing, or an optional field has the wrong type.
 */
export function toResourceLinkPart(input: ResourceLinkInput): ToolContentPart {
  const where = 'ToolResult.resourceLink';
  if (typeof input !== 'object' || input === null)
    throw new ToolInputError(`${where} needs { uri, name }; got ${describe(input)}.`);
  assertUri(input.uri, where);
  if (typeof input.name !== 'string' || input.name === '')
    throw new ToolInputError(`${where} for '${input.uri}' needs a non-empty 'name' (e.g. the file name).`);
  for (const field of ['title', 'description'] as const) {
    if (input[field] !== undefined && typeof input[field] !== 'string')
      throw new ToolInputError(`${where} for '${input.uri}': '${field}' must be a string.`);
  }
  if (input.mimeType !== undefined) assertMimeType(input.mimeType, where);
  if (input.size !== undefined && !(Number.isSafeInteger(input.size) && input.size >= 0))
    throw new ToolInputError(`${where} for '${input.uri}': 'size' must be a whole number of bytes (≥ 0).`);
  const part: Record<string, unknown> = { type: 'resource_link', uri: input.uri, name: input.name };
  for (const field of ['title', 'description', 'mimeType', 'size'] as const)
    if (input[field] !== undefined) part[field] = input[field];
  return Object.freeze(part) as ToolContentPart;
}

/**
 * Checks that a value is a plain object (its prototype is `Object.prototype` or null).
 *
 * @throws ToolInputError otherwise.
 */
export function assertPlainRecord(value: unknown, where: string): asserts value is Record<string, unknown> {
  const prototype: unknown =
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? Object.getPrototypeOf(value)
      : undefined;
  if (prototype !== Object.prototype && prototype !== null) {
    throw new ToolInputError(
      `${where} needs a plain object (e.g. { total: 3 }); got ${describe(value)}. Convert class instances, arrays and primitives to a plain object first.`,
    );
  }
}

/** Returns the number of bytes base64 text decodes to. */
export function countBase64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return (data.length / 4) * 3 - padding;
}

function toBase64(data: Uint8Array | string, where: string, field: string): string {
  if (data instanceof Uint8Array) {
    if (data.byteLength === 0)
      throw new ToolInputError(`${where} received empty '${field}'; give at least one byte.`);
    return Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');
  }
  if (typeof data !== 'string') {
    throw new ToolInputError(
      `${where}: '${field}' must be a Uint8Array or base64 text; got ${describe(data)}.`,
    );
  }
  if (data === '') throw new ToolInputError(`${where} received empty '${field}'; give at least one byte.`);
  if (data.length % 4 !== 0 || !BASE64.test(data)) {
    throw new ToolInputError(
      `${where}: '${field}' is not base64 (standard alphabet, padded, no whitespace or data: prefix); pass the bytes as a Uint8Array, or encode them with Buffer.from(bytes).toString('base64').`,
    );
  }
  return data;
}

function assertMimeType(mimeType: unknown, where: string, family?: 'image' | 'audio'): void {
  const match = typeof mimeType === 'string' ? MIME_TYPE.exec(mimeType) : null;
  if (!match) {
    throw new ToolInputError(
      `${where} received ${describe(mimeType)} as mimeType; give a MIME type such as '${family === 'audio' ? 'audio/wav' : family === 'image' ? 'image/png' : 'application/pdf'}'.`,
    );
  }
  if (family && match[1].toLowerCase() !== family) {
    throw new ToolInputError(
      `${where} received mimeType '${String(mimeType)}', which is not ${family}/*; give an ${family}/* type, or send other data with ToolResult.resource({ uri, mimeType, blob }).`,
    );
  }
}

function assertUri(uri: unknown, where: string): void {
  if (typeof uri !== 'string' || !URI_SCHEME.test(uri)) {
    throw new ToolInputError(
      `${where} needs a 'uri' with a scheme (e.g. 'file:///report.pdf' or 'memo://42'); got ${describe(uri)}.`,
    );
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string')
    return value.length > 40 ? `a string of ${value.length} characters` : `'${value}'`;
  if (typeof value === 'object') {
    const name = (Object.getPrototypeOf(value) as { constructor?: { name?: string } } | null)?.constructor
      ?.name;
    return name && name !== 'Object' ? `an instance of ${name}` : 'an object';
  }
  return typeof value === 'undefined' ? 'undefined' : `a ${typeof value}`;
}
