import { spawn } from 'node:child_process';

/** What one load run measured. */
export interface LoadResult {
  readonly callsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly p999Ms: number;
  readonly requests: number;
  /** Responses with a status outside 2xx/3xx. */
  readonly non2xx: number;
  /** Connect, read and write errors, and requests that timed out. */
  readonly socketErrors: number;
  /** Responses whose body was read and checked for the sum (0 when the generator did not read bodies). */
  readonly checked: number;
  /** Checked responses without the sum (or not 200), and the first of them. */
  readonly wrong: number;
  readonly sample: string;
}

/** One load run: `connections` keep-alive connections posting `add` calls for `seconds`. */
export interface LoadRunOptions {
  readonly url: string;
  readonly connections: number;
  readonly seconds: number;
  /** Read every response body and check it carries the sum (costs the generator time: warm-up only). */
  readonly checkBodies: boolean;
  readonly token?: string;
  /** Session ids used in turn, one per request (stateful servers). */
  readonly sessionIds?: readonly string[];
}

/** A load generator running as its own process. */
export interface LoadGenerator {
  /** How the report names it (`wrk 4.1.0`, `autocannon`). */
  readonly name: string;
  /** Why a server cannot be measured with it, if so. */
  unsupported(options: { stateful: boolean }): string | undefined;
  run(options: LoadRunOptions): Promise<LoadResult>;
}

/**
 * Runs a command to completion and returns its stdout; kills it (SIGKILL) when it runs past `timeoutMs`.
 * Rejects when it cannot start, exits non-zero or times out.
 */
export function runProcess(command: string, args: readonly string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (stdout.length < 1_000_000) stdout += chunk;
    });
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 10_000) stderr += chunk;
    });
    const onExit = () => child.kill('SIGKILL');
    process.once('exit', onExit);
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new RangeError(`${command} ran past ${timeoutMs} ms and was killed`));
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      process.removeListener('exit', onExit);
      reject(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      process.removeListener('exit', onExit);
      if (code === 0) resolve(stdout);
      else
        reject(
          new RangeError(`${command} exited (${code ?? signal}): ${stderr.trim() || stdout.slice(-500)}`),
        );
    });
  });
}
