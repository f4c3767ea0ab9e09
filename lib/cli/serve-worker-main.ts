// A worker process of `protolink serve --workers <n>`, forked by the primary through node:cluster.
import 'reflect-metadata';
import { PROCESS_IO } from './cli-io';
import { runServeWorker } from './serve-worker';
import { SERVE_WORKER_MESSAGE_TAG } from './serve-worker-messages';
import { terminalSafeIo } from './terminal-safe-io';

void runServeWorker(
  process.env,
  terminalSafeIo(PROCESS_IO),
  (message) =>
    new Promise<void>((resolve) => {
      // Resolved once the message is handed to the channel, so an exit right after does not lose it.
      if (!process.send?.({ tag: SERVE_WORKER_MESSAGE_TAG, ...message }, undefined, {}, () => resolve()))
        resolve();
    }),
).then((code) => {
  // Exits at once: the cluster channel would otherwise keep the worker alive after its server closed.
  process.exit(code);
});
