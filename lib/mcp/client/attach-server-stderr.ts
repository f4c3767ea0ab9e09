/**
 * Attaches what a stdio MCP server wrote to stderr to an error as `serverStderr`, a non-enumerable property:
 * it is there for local debugging but never in the message nor in `toJSON()`, since error messages reach
 * models and remote clients, and a server's stderr can hold stack traces and credentials.
 *
 * @returns the same error.
 */
export function attachServerStderr<T extends Error>(error: T, stderr: string): T {
  if (stderr) {
    Object.defineProperty(error, 'serverStderr', {
      value: stderr,
      enumerable: false,
      writable: false,
      configurable: true,
    });
  }
  return error;
}

/** The `serverStderr` attached to an error or to one of its causes, or undefined. */
export function serverStderrOf(error: unknown): string | undefined {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current instanceof Error && !seen.has(current)) {
    seen.add(current);
    const stderr = (current as { serverStderr?: unknown }).serverStderr;
    if (typeof stderr === 'string') return stderr;
    current = current.cause;
  }
  return undefined;
}

/** The sentence an error message carries instead of the server's stderr. */
export const SERVER_STDERR_NOTE = 'The server wrote to stderr; see error.serverStderr.';
