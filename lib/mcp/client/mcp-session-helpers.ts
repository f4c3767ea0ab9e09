// Small helpers of the MCP session: bounded waits, quiet kills, and error descriptions.

/** Waits for a promise at most `ms` (on an unref'd timer); its failure or lateness is ignored. */
export async function withinTime(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
    timer.unref();
  });
  try {
    await Promise.race([promise.then(noop, noop), expired]);
  } finally {
    clearTimeout(timer);
  }
}

function noop(): void {
  // ignored on purpose
}

/** Sends SIGTERM to a process that may already be gone. */
export function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    // already gone
  }
}

/** A short description of an SDK or system error. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
