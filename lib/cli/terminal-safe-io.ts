import type { CliIo } from './cli-io';
import { stripTerminalEscapes } from './strip-terminal-escapes';

const SAFE = new WeakSet<CliIo>();

/**
 * Returns a {@link CliIo} that passes everything it prints through {@link stripTerminalEscapes}: every
 * print site of the CLI writes through one, so server-provided text (tool descriptions, results, error
 * messages) never reaches the terminal with escape sequences. Wrapping a safe io returns it unchanged.
 */
export function terminalSafeIo(io: CliIo): CliIo {
  if (SAFE.has(io)) return io;
  const safe: CliIo = {
    out: (text) => io.out(stripTerminalEscapes(text)),
    err: (text) => io.err(stripTerminalEscapes(text)),
  };
  SAFE.add(safe);
  return safe;
}
