/**
 * The listeners waiting for a run's cancellation: none (`undefined`), one kept as is (the common case, one
 * call waiting: no Set to allocate) or several in a Set. Never an empty Set.
 */
export type CancelListeners = (() => void) | Set<() => void> | undefined;

/** Returns `listeners` with `listener` added (a Set it was already in is returned as is). */
export function addCancelListener(listeners: CancelListeners, listener: () => void): CancelListeners {
  if (listeners === undefined || listeners === listener) return listener;
  if (typeof listeners === 'function') return new Set([listeners, listener]);
  return listeners.add(listener);
}

/**
 * Returns `listeners` without `listener`: `undefined` when it was the last one, `listeners` itself when it
 * was not there or others are left.
 */
export function removeCancelListener(listeners: CancelListeners, listener: () => void): CancelListeners {
  if (listeners === listener) return undefined;
  if (typeof listeners !== 'object' || !listeners.delete(listener)) return listeners;
  return listeners.size === 0 ? undefined : listeners;
}

/**
 * Calls every listener once; one that throws is reported as a process warning (code
 * `PROTOLINK_CANCEL_LISTENER`) and never keeps cancellation from the others (the call's own rejection, the
 * signal, child contexts).
 */
export function callCancelListeners(listeners: CancelListeners): void {
  if (typeof listeners === 'function') callCancelListener(listeners);
  else if (listeners) for (const listener of listeners) callCancelListener(listener);
}

/** Calls one listener: see {@link callCancelListeners}. */
function callCancelListener(listener: () => void): void {
  try {
    listener();
  } catch (error) {
    process.emitWarning(
      `A RunContext cancel listener threw: ${error instanceof Error ? error.message : String(error)}`,
      { code: 'PROTOLINK_CANCEL_LISTENER' },
    );
  }
}
