import cluster from 'node:cluster';
import type { Worker } from 'node:cluster';
import { ToolRuntimeError } from '../errors/tool-runtime-error';
import type { CliIo } from './cli-io';
import type { ServeHttpConfig } from './serve-http-config';
import { SERVE_WORKER_ENV } from './serve-worker-messages';
import type { ServeWorkerConfig } from './serve-worker';
import { toServeWorkerMessage } from './serve-worker-messages';
import type { ServeWorkerMessage } from './serve-worker-messages';

/** Options of {@link runServeWorkers}. */
export interface ServeWorkersOptions {
  /** How each worker serves. */
  readonly config: ServeHttpConfig;
  /** How many worker processes (2 or more). */
  readonly workers: number;
  readonly io: CliIo;
  /** Called once every worker listens, with what the first one reported (for the banner). */
  readonly onListening: (listening: Extract<ServeWorkerMessage, { kind: 'listening' }>) => void;
  /** Stops the workers when it aborts (besides SIGINT and SIGTERM). */
  readonly signal?: AbortSignal;
}

/** First delay before a worker that died is started again; it doubles per quick death, up to the max. */
const RESTART_DELAY_MS = 100;
const MAX_RESTART_DELAY_MS = 10_000;
/** A worker that ran this long before dying starts its next life with the first delay again. */
const STABLE_AFTER_MS = 10_000;
/** How long a worker may take to close on SIGTERM before it is killed. */
const STOP_GRACE_MS = 10_000;

/**
 * Runs `protolink serve` as a `node:cluster` primary: forks `workers` processes that serve on one shared port
 * (the primary accepts connections and hands them round robin to the workers), restarts a worker that dies
 * once all started (waiting 100 ms, doubling per quick death up to 10 s), and on SIGINT, SIGTERM or `signal`
 * asks every worker to stop and resolves when all exited.
 *
 * @throws ToolRuntimeError when a worker cannot start (its own error, e.g. a module that does not load or an
 * unreachable Redis, is printed by the worker and named in the message); the other workers are stopped.
 */
export function runServeWorkers(options: ServeWorkersOptions): Promise<void> {
  return new ServeWorkerPool(options).run();
}

interface Slot {
  readonly number: number;
  worker?: Worker;
  startedAt: number;
  quickDeaths: number;
  restartTimer?: NodeJS.Timeout;
}

class ServeWorkerPool {
  private readonly slots: Slot[];
  private readonly listening = new Set<number>();
  private started = false;
  private stopping = false;
  private failure: ToolRuntimeError | undefined;
  private settle: (() => void) | undefined;
  private readonly stop = () => this.stopAll();

  constructor(private readonly options: ServeWorkersOptions) {
    this.slots = Array.from({ length: options.workers }, (_unused, index) => ({
      number: index + 1,
      startedAt: 0,
      quickDeaths: 0,
    }));
  }

  run(): Promise<void> {
    cluster.setupPrimary({ exec: workerMainPath(), execArgv: workerExecArgv(), args: [], silent: false });
    const done = new Promise<void>((resolve) => (this.settle = resolve));
    process.once('SIGINT', this.stop);
    process.once('SIGTERM', this.stop);
    this.options.signal?.addEventListener('abort', this.stop, { once: true });
    if (this.options.signal?.aborted) this.stopAll();
    else for (const slot of this.slots) this.fork(slot);
    return done.then(() => {
      process.off('SIGINT', this.stop);
      process.off('SIGTERM', this.stop);
      this.options.signal?.removeEventListener('abort', this.stop);
      if (this.failure) throw this.failure;
    });
  }

  private fork(slot: Slot): void {
    slot.restartTimer = undefined;
    const config: ServeWorkerConfig = { ...this.options.config, slot: slot.number };
    const worker = cluster.fork({ [SERVE_WORKER_ENV]: JSON.stringify(config) });
    slot.worker = worker;
    slot.startedAt = Date.now();
    worker.on('message', (raw: unknown) => {
      const message = toServeWorkerMessage(raw);
      if (message?.kind === 'listening') this.onListening(slot, message);
      else if (message?.kind === 'failed' && !this.started) {
        this.failure ??= new ToolRuntimeError(
          `worker ${slot.number} of ${this.slots.length} could not start: ${message.name}: ${message.message}`,
        );
      }
    });
    worker.on('exit', (code, signal) => this.onExit(slot, worker, code, signal));
  }

  private onListening(slot: Slot, message: Extract<ServeWorkerMessage, { kind: 'listening' }>): void {
    if (this.started) {
      this.options.io.err(
        `protolink serve: worker ${slot.number} (pid ${slot.worker?.process.pid}) serves again.`,
      );
      return;
    }
    this.listening.add(slot.number);
    if (this.listening.size === this.slots.length && !this.stopping) {
      this.started = true;
      this.options.onListening(message);
    }
  }

  private onExit(slot: Slot, worker: Worker, code: number | null, signal: string | null): void {
    if (slot.worker === worker) slot.worker = undefined;
    if (this.stopping) {
      this.settleWhenAllExited();
      return;
    }
    const how = signal ? `signal ${signal}` : `exit code ${code}`;
    if (!this.started) {
      // A worker that cannot start would fail the same way again: give up, with its reason.
      this.failure ??= new ToolRuntimeError(
        `worker ${slot.number} of ${this.slots.length} exited (${how}) before it served; see its error above.`,
      );
      this.stopAll();
      return;
    }
    const lived = Date.now() - slot.startedAt;
    slot.quickDeaths = lived >= STABLE_AFTER_MS ? 0 : slot.quickDeaths + 1;
    const delay = Math.min(MAX_RESTART_DELAY_MS, RESTART_DELAY_MS * 2 ** Math.max(0, slot.quickDeaths - 1));
    this.options.io.err(
      `protolink serve: worker ${slot.number} (pid ${worker.process.pid}) exited unexpectedly (${how}); starting it again in ${delay} ms.`,
    );
    slot.restartTimer = setTimeout(() => {
      if (!this.stopping) this.fork(slot);
    }, delay);
  }

  private stopAll(): void {
    if (this.stopping) return;
    this.stopping = true;
    for (const slot of this.slots) {
      clearTimeout(slot.restartTimer);
      const worker = slot.worker;
      if (!worker) continue;
      worker.process.kill('SIGTERM');
      const kill = setTimeout(() => worker.process.kill('SIGKILL'), STOP_GRACE_MS);
      kill.unref();
      worker.once('exit', () => clearTimeout(kill));
    }
    this.settleWhenAllExited();
  }

  private settleWhenAllExited(): void {
    if (this.slots.every((slot) => slot.worker === undefined)) this.settle?.();
  }
}

/** The worker program: the compiled `.js` next to this file, or the `.ts` source when run through ts-node. */
function workerMainPath(): string {
  return require.resolve('./serve-worker-main');
}

/** The primary's Node flags, plus the TypeScript hook when the worker program is a `.ts` source. */
function workerExecArgv(): string[] {
  const execArgv = [...process.execArgv];
  const needsTypeScript = workerMainPath().endsWith('.ts');
  if (needsTypeScript && !execArgv.some((argument) => argument.includes('ts-node'))) {
    execArgv.push('-r', 'ts-node/register/transpile-only');
  }
  return execArgv;
}
