/** The one 'abort' listener registered on a signal, and the listeners it calls. */
interface SharedAbortListener {
  readonly listeners: Set<() => void>;
  readonly handler: () => void;
}

const shared = new WeakMap<AbortSignal, SharedAbortListener>();

/**
 * Calls `listener` once when `signal` aborts (not when it already has: check `signal.aborted` first) and
 * returns a function that removes it. Every listener of one signal shares a single 'abort' listener on it,
 * removed with the last of them: many calls in flight on one long-lived signal neither pile up listeners
 * nor trip Node's `MaxListenersExceededWarning` (at 11 listeners).
 */
export function onAbort(signal: AbortSignal, listener: () => void): () => void {
  let entry = shared.get(signal);
  if (!entry) {
    const listeners = new Set<() => void>();
    const handler = (): void => {
      shared.delete(signal);
      // A listener removed by an earlier one while the signal aborts is not called (as with EventTarget).
      for (const each of listeners) each();
      listeners.clear();
    };
    entry = { listeners, handler };
    shared.set(signal, entry);
    signal.addEventListener('abort', handler, { once: true });
  }
  const current = entry;
  current.listeners.add(listener);
  return () => {
    if (!current.listeners.delete(listener) || current.listeners.size > 0) return;
    signal.removeEventListener('abort', current.handler);
    if (shared.get(signal) === current) shared.delete(signal);
  };
}

/** How many {@link onAbort} listeners wait on a signal (for diagnostics and tests). */
export function countAbortListeners(signal: AbortSignal): number {
  return shared.get(signal)?.listeners.size ?? 0;
}
