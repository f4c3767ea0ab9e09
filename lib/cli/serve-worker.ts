import { SERVE_WORKER_ENV } from './serve-worker-messages';
import type { ServeWorkerMessage } from './serve-worker-messages';

export { SERVE_WORKER_ENV };
import type { CliIo } from './cli-io';
import { loadToolModule } from './load-tool-module';
import { toAgentServerOptions } from './serve-http-config';
import type { ServeHttpConfig } from './serve-http-config';
import { startAgentServer } from '../server/start-agent-server';
import { ToolInputError } from '../errors/tool-input-error';

/** What a worker of `protolink serve --workers <n>` is told by its primary. */
export interface ServeWorkerConfig extends ServeHttpConfig {
  /** The worker's number, 1 to n (kept when it is restarted). */
  readonly slot: number;
}

/**
 * Runs one worker of `protolink serve --workers <n>` (a `node:cluster` worker): serves like a single
 * `protolink serve` on the port the workers share, tells the primary when it listens (or why it could not
 * start), and stops on SIGINT, SIGTERM or when the primary goes away. Resolves with the exit code.
 */
export async function runServeWorker(
  env: Readonly<Record<string, string | undefined>>,
  io: CliIo,
  send: (message: ServeWorkerMessage) => Promise<void>,
): Promise<number> {
  let config: ServeWorkerConfig;
  try {
    config = parseConfig(env[SERVE_WORKER_ENV]);
  } catch (error) {
    await report(error, io, 0, send);
    return 1;
  }
  const label = `worker ${config.slot}`;
  try {
    const agent = loadToolModule(config.modulePath);
    const handle = await startAgentServer(
      agent,
      toAgentServerOptions(config, (error) => io.err(`protolink serve (${label}): ${describeError(error)}`)),
    );
    await send({
      kind: 'listening',
      slot: config.slot,
      mcpUrl: handle.mcpUrl,
      cardUrl: handle.cardUrl,
      tools: agent.tools.size,
      agentName: agent.card.name,
    });
    await new Promise<void>((resolve) => {
      const stop = () => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        process.off('disconnect', stop);
        void handle.close().then(resolve, resolve);
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      // The primary died (or let this worker go): nothing would restart or stop it.
      process.once('disconnect', stop);
    });
    return 0;
  } catch (error) {
    await report(error, io, config.slot, send);
    return 1;
  }
}

/** Says why the worker could not start, on its stderr and to the primary. */
function report(
  error: unknown,
  io: CliIo,
  slot: number,
  send: (message: ServeWorkerMessage) => Promise<void>,
): Promise<void> {
  io.err(`protolink serve (worker ${slot}): ${describeError(error)}`);
  return send({
    kind: 'failed',
    slot,
    name: error instanceof Error ? error.name : 'Error',
    message: error instanceof Error ? error.message : String(error),
  });
}

function parseConfig(text: string | undefined): ServeWorkerConfig {
  let parsed: unknown;
  try {
    parsed = text === undefined ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const config = parsed as Partial<ServeWorkerConfig> | undefined;
  if (
    typeof config !== 'object' ||
    config === null ||
    typeof config.modulePath !== 'string' ||
    typeof config.slot !== 'number'
  ) {
    throw new ToolInputError(
      `${SERVE_WORKER_ENV} does not hold a worker configuration: this program is started by 'protolink serve --workers <n>', not by hand.`,
    );
  }
  return config as ServeWorkerConfig;
}

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
