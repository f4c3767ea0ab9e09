import type { RunContext } from './run-context';

/**
 * Contexts held by a call in flight, keyed by what cancels them (an outside signal or a parent context):
 * a WeakMap entry lives as long as its key, so the signal keeps the context (and the call waiting on it)
 * reachable, however weakly the wiring itself holds it.
 */
const HELD_BY_SOURCE = new WeakMap<object, Map<RunContext, number>>();

/**
 * Keeps a context reachable from its outside signal and its parents (and each parent from its own signal)
 * until the returned function is called. Calls hold their context while they wait, so that garbage
 * collection cannot drop a context created inline (`callToolInContext(name, new RunContext({ signal }))`)
 * and with it the abort the call waits for. Releasing twice does nothing.
 */
export function holdRunContext(context: RunContext): () => void {
  const own = context as unknown as { externalSignal?: AbortSignal; parent?: RunContext };
  // A context with no outside signal and no parent is held by nobody: nothing to hold or release.
  if (!own.externalSignal && !own.parent) return releaseNothing;
  const releases: (() => void)[] = [];
  let current: RunContext | undefined = context;
  while (current) {
    const internals = current as unknown as { externalSignal?: AbortSignal; parent?: RunContext };
    if (internals.externalSignal) releases.push(holdFrom(internals.externalSignal, current));
    if (internals.parent) releases.push(holdFrom(internals.parent, current));
    current = internals.parent;
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    for (const release of releases) release();
  };
}

const releaseNothing = (): void => undefined;

function holdFrom(source: object, context: RunContext): () => void {
  let held = HELD_BY_SOURCE.get(source);
  if (!held) HELD_BY_SOURCE.set(source, (held = new Map()));
  held.set(context, (held.get(context) ?? 0) + 1);
  const holders = held;
  return () => {
    const count = (holders.get(context) ?? 1) - 1;
    if (count > 0) holders.set(context, count);
    else holders.delete(context);
    if (holders.size === 0 && HELD_BY_SOURCE.get(source) === holders) HELD_BY_SOURCE.delete(source);
  };
}
