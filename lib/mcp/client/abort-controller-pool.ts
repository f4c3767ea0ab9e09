/** What `addEventListener` was called with. */
type ListenerArguments = Parameters<AbortSignal['addEventListener']>;

/** A pooled controller and the listeners added to its signal since it was taken. */
interface PooledController {
  readonly controller: AbortController;
  readonly added: ListenerArguments[];
}

/**
 * AbortControllers for calls that nearly always end without aborting, reused from one call to the next:
 * building an AbortSignal costs about 5 µs on Node 20 (as much as the rest of the adapter's own work on a
 * call), and the MCP SDK takes one per call. A controller goes back to the pool only when its signal did
 * not abort, with every listener added to it while it was out removed again (the SDK adds one per request
 * and never removes it) and no `onabort` handler; otherwise it is dropped.
 */
export class AbortControllerPool {
  private readonly idle: PooledController[] = [];
  private readonly out = new Map<AbortController, PooledController>();

  /** @param limit Most idle controllers kept (the calls usually in flight at once). */
  constructor(private readonly limit = 8) {}

  /** A controller whose signal has not aborted and has no listeners. */
  take(): AbortController {
    const pooled = this.idle.pop() ?? track(new AbortController());
    this.out.set(pooled.controller, pooled);
    return pooled.controller;
  }

  /** Gives a controller from {@link take} back once its call settled; an aborted one is dropped. */
  release(controller: AbortController): void {
    const pooled = this.out.get(controller);
    if (!pooled) return;
    this.out.delete(controller);
    const signal = controller.signal;
    for (const [type, listener, options] of pooled.added) signal.removeEventListener(type, listener, options);
    pooled.added.length = 0;
    if (!signal.aborted && signal.onabort === null && this.idle.length < this.limit) this.idle.push(pooled);
  }
}

/** Records the listeners added to the controller's signal, so that they can be removed on release. */
function track(controller: AbortController): PooledController {
  const added: PooledController['added'] = [];
  const signal = controller.signal;
  const addEventListener = signal.addEventListener;
  Object.defineProperty(signal, 'addEventListener', {
    value(...listenerArguments: ListenerArguments) {
      if (listenerArguments[1]) added.push(listenerArguments);
      return addEventListener.apply(signal, listenerArguments);
    },
    configurable: true,
    writable: true,
  });
  return { controller, added };
}
