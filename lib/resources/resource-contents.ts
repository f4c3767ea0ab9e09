import { ToolDefinitionError } from '../errors/tool-definition-error';
import { isWithinResourceUri } from './is-within-resource-uri';
import { toResourcePart } from '../tools/tool-content-part';
import type { ResourceInput } from '../tools/tool-content-part';
import { ToolResult } from '../tools/tool-result';

/** One item of a resource read: text or a base64 blob, with its URI (MCP's `TextResourceContents`/`BlobResourceContents`). */
export type ResourceContents =
  | { readonly uri: string; readonly mimeType?: string; readonly text: string }
  | { readonly uri: string; readonly mimeType?: string; readonly blob: string };

/** What `agent.readResource(uri)` returns (MCP's `ReadResourceResult`). */
export interface ReadResourceResult {
  readonly contents: readonly ResourceContents[];
}

/**
 * Turns what a `@Resource`/`@ResourceTemplate` method returned into resource contents: a string is text,
 * bytes (`Uint8Array`, `Buffer`) a base64 blob, an object `{ text | blob, uri?, mimeType? }` one item, a list
 * several, `ToolResult.resource(…)` its resource parts, `{ contents: [...] }` those items. Items without a
 * URI or MIME type take the read URI and the declared `mimeType`; an item's own URI must be the read URI or a
 * sub-resource under it (see {@link isWithinResourceUri}), so contents passed on from elsewhere (another
 * server's read) cannot be served as another resource's.
 *
 * @throws ToolDefinitionError when the method returned something else, or an item is malformed or labelled
 * with a URI outside the one read.
 */
export function toResourceContents(
  value: unknown,
  uri: string,
  mimeType: string | undefined,
  where: string,
): ReadResourceResult {
  const items = toItems(value, where);
  const contents = items.map((item, index) => {
    if (typeof item.uri === 'string' && !isWithinResourceUri(uri, item.uri)) {
      throw new ToolDefinitionError(
        `${where} returned item #${index + 1} labelled ${quoteUri(item.uri)}, which is neither that URI nor a ` +
          'sub-resource under it; leave out the uri of items that hold this resource (they take the URI read).',
      );
    }
    const input: ResourceInput = {
      uri: typeof item.uri === 'string' ? item.uri : uri,
      mimeType: typeof item.mimeType === 'string' ? item.mimeType : mimeType,
      text: item.text as string | undefined,
      blob: item.blob as Uint8Array | string | undefined,
    };
    if (input.mimeType === undefined) delete input.mimeType;
    try {
      const part = toResourcePart(input) as { resource: ResourceContents };
      return part.resource;
    } catch (error) {
      throw new ToolDefinitionError(
        `${where} returned a malformed item #${index + 1}: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
  });
  return Object.freeze({ contents: Object.freeze(contents) });
}

/** A URI for messages: JSON-quoted, and cut when long (it may come from elsewhere). */
function quoteUri(uri: string): string {
  return JSON.stringify(uri.length > 200 ? `${uri.slice(0, 200)}…` : uri);
}

function toItems(value: unknown, where: string): Record<string, unknown>[] {
  if (typeof value === 'string') return [{ text: value }];
  if (value instanceof Uint8Array) return [{ blob: value }];
  if (ToolResult.isToolResult(value)) {
    const resources = value.content.filter((part) => part.type === 'resource');
    if (resources.length === 0 || resources.length !== value.content.length)
      throw new ToolDefinitionError(
        `${where} returned a ToolResult with parts other than resources; return ToolResult.resource({ uri, text | blob }) or plain text/bytes.`,
      );
    return resources.map((part) => ({ ...(part as { resource: Record<string, unknown> }).resource }));
  }
  if (Array.isArray(value)) return value.flatMap((item) => toItems(item, where));
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    if (Array.isArray(record.contents)) return toItems(record.contents, where);
    if (record.text !== undefined || record.blob !== undefined) return [record];
  }
  throw new ToolDefinitionError(
    `${where} returned ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}; a resource method returns text, bytes, { text | blob, mimeType? }, a list of them, or ToolResult.resource(...).`,
  );
}
