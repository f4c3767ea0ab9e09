/** Where the CLI writes: stdout for results, stderr for problems (injectable for tests). */
export interface CliIo {
  /** Writes a result line (or block) to standard output. */
  out(text: string): void;
  /** Writes a problem to standard error. */
  err(text: string): void;
}

/** The process's own standard output and error. */
export const PROCESS_IO: CliIo = {
  out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
};
