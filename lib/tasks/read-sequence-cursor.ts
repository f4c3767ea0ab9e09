import { ToolInputError } from '../errors/tool-input-error';

/**
 * Reads a `tasks/list` cursor of the stores' form (the sequence number of the last task of the previous
 * page; 0 when absent).
 *
 * @throws ToolInputError for a cursor the store never gave.
 */
export function readSequenceCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  if (typeof cursor !== 'string' || !/^[0-9]{1,15}$/.test(cursor)) {
    throw new ToolInputError(
      `Invalid tasks/list cursor '${String(cursor).slice(0, 40)}': pass back a nextCursor as given.`,
    );
  }
  return Number(cursor);
}
