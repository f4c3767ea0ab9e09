import { onAbort } from './on-abort';
import type { RunContext } from './run-context';

/**
 * Wires a context to its parent and outside signal, which may outlive it by far: they hold it only
 * weakly, so a child whose signal a tool read (and which is never canceled) can still be collected.
 * Kept outside the class so that no closure created here captures the context strongly.
 */
export function wireOutsideSources(
  context: RunContext,
  external: AbortSignal | undefined,
  parent: RunContext | undefined,
): () => void {
  const self = new WeakRef<RunContext>(context);
  // notifyCanceled is private to the class; this helper is its module-level part.
  const notifyWeakly = () =>
    (self.deref() as unknown as { notifyCanceled(): void } | undefined)?.notifyCanceled();
  // Contexts sharing one outside signal share one listener on it (no MaxListenersExceededWarning at 11).
  const stopExternal = external ? onAbort(external, notifyWeakly) : undefined;
  const stopParent = parent?.onCanceled(notifyWeakly);
  const detach = () => {
    stopExternal?.();
    stopParent?.();
  };
  OUTSIDE_WIRING.register(context, detach, context);
  return detach;
}

// Detaches a collected context from its parent and signal (their listener lists would otherwise keep a
// stale entry per child forever).
const OUTSIDE_WIRING = new FinalizationRegistry<() => void>((detach) => detach());

/** Forgets a context's wiring registration (its wiring was detached by the context itself). */
export function unwireOutsideSources(context: RunContext): void {
  OUTSIDE_WIRING.unregister(context);
}
