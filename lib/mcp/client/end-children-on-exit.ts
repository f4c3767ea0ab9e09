import type { ChildProcess } from 'node:child_process';

// One set for the whole process, because the hook it serves is process-wide: `process.on('exit')` is
// registered once, however many adapters spawn servers.
const liveChildren = new Set<ChildProcess>();
let hookInstalled = false;

/**
 * Ends a stdio server's process when this process exits, so a script that forgot `close()` leaves no
 * orphaned server behind. The child is forgotten as soon as it exits by itself.
 */
export function endChildOnExit(child: ChildProcess): void {
  if (child.exitCode !== null || child.signalCode !== null) return;
  liveChildren.add(child);
  child.once('exit', () => liveChildren.delete(child));
  if (hookInstalled) return;
  hookInstalled = true;
  process.on('exit', endLiveChildren);
}

/** How many stdio servers the exit hook would end now (for tests and diagnostics). */
export function countLiveChildren(): number {
  return liveChildren.size;
}

function endLiveChildren(): void {
  // Only synchronous work is possible in an exit handler: a signal is sent, nobody waits for the child.
  for (const child of liveChildren) {
    try {
      child.kill('SIGTERM');
    } catch {
      // already gone
    }
  }
  liveChildren.clear();
}
