import { stripTerminalEscapes } from './strip-terminal-escapes';

/**
 * Formats rows as a plain-text table with a header rule; long cells are cut to keep lines readable, and
 * escape sequences and line breaks in cells (server-provided descriptions) are removed before measuring.
 */
export function formatTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  maxCell = 60,
): string {
  const cut = (cell: string): string => (cell.length > maxCell ? `${cell.slice(0, maxCell - 1)}…` : cell);
  const table = [header, ...rows].map((row) =>
    row.map((cell) => cut(stripTerminalEscapes(cell).replace(/\s+/g, ' '))),
  );
  const widths = header.map((_, column) => Math.max(...table.map((row) => row[column]?.length ?? 0)));
  const line = (row: readonly string[]): string =>
    row
      .map((cell, column) => cell.padEnd(widths[column]))
      .join('  ')
      .trimEnd();
  return [
    line(table[0]),
    widths.map((width) => '-'.repeat(width)).join('  '),
    ...table.slice(1).map(line),
  ].join('\n');
}
