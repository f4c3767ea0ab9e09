import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { toWireMcpError } from './to-catalog-mcp-error';

/** Most entries in one page of `resources/list`, `resources/templates/list` or `prompts/list`. */
export const CATALOG_PAGE_SIZE = 100;

/** One page of a list and the cursor of the next (absent on the last page). */
export interface CatalogPage<T> {
  readonly items: T[];
  readonly nextCursor?: string;
}

/**
 * Returns the page of a list that a cursor points at (no cursor: the first). Cursors are opaque to clients:
 * the offset of the page, base64url-encoded.
 *
 * @throws McpError -32602 for a cursor this server did not give.
 */
export function paginateCatalog<T>(items: readonly T[], cursor: unknown): CatalogPage<T> {
  const offset = cursor === undefined ? 0 : readCursor(cursor);
  const page = items.slice(offset, offset + CATALOG_PAGE_SIZE);
  const next = offset + CATALOG_PAGE_SIZE;
  return next < items.length ? { items: page, nextCursor: toCursor(next) } : { items: page };
}

function toCursor(offset: number): string {
  return Buffer.from(`o:${offset}`).toString('base64url');
}

function readCursor(cursor: unknown): number {
  const text = typeof cursor === 'string' ? Buffer.from(cursor, 'base64url').toString() : '';
  const match = /^o:(\d{1,9})$/.exec(text);
  if (!match || toCursor(Number(match[1])) !== cursor)
    throw toWireMcpError(
      ErrorCode.InvalidParams,
      `Invalid cursor ${JSON.stringify(cursor)}: pass the nextCursor of the previous page.`,
    );
  return Number(match[1]);
}
