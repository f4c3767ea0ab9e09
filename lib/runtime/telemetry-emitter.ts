/** A listener of one event type. */
export type TelemetryListener<Payload> = (event: Payload) => void | Promise<void>;

/** Called when a listener throws or rejects; the call being observed is never affected. */
export type ListenerErrorHandler = (error: unknown, eventName: string) => void;

/**
 * Delivers typed events to subscribed listeners. A listener that throws (or returns a rejected promise)
 * never breaks the call it observes: its error goes to `onListenerError` (by default, one process
 * warning per emitter).
 */
export class TelemetryEmitter<EventMap extends object> {
  private readonly listeners = new Map<keyof EventMap, TelemetryListener<never>[]>();
  private warned = false;

  constructor(private readonly onListenerError?: ListenerErrorHandler) {}

  /** Subscribes a listener to one event type. */
  on<Name extends keyof EventMap>(name: Name, listener: TelemetryListener<EventMap[Name]>): void {
    const current = this.listeners.get(name) ?? [];
    // A fresh array per change, so an emit in progress keeps the list it started with.
    this.listeners.set(name, [...current, listener as TelemetryListener<never>]);
  }

  /** Removes a listener; returns whether it was subscribed. */
  off<Name extends keyof EventMap>(name: Name, listener: TelemetryListener<EventMap[Name]>): boolean {
    const current = this.listeners.get(name);
    const index = current ? current.indexOf(listener as TelemetryListener<never>) : -1;
    if (!current || index < 0) return false;
    const next = current.filter((_, position) => position !== index);
    if (next.length) this.listeners.set(name, next);
    else this.listeners.delete(name);
    return true;
  }

  /** Whether any listener is subscribed to this event (lets callers skip building the payload). */
  has(name: keyof EventMap): boolean {
    return this.listeners.has(name);
  }

  /** Whether any listener is subscribed at all. */
  get active(): boolean {
    return this.listeners.size > 0;
  }

  /** Delivers an event to its listeners; never throws. */
  emit<Name extends keyof EventMap>(name: Name, event: EventMap[Name]): void {
    const current = this.listeners.get(name);
    if (!current) return;
    for (const listener of current) {
      try {
        const returned = (listener as TelemetryListener<EventMap[Name]>)(event);
        if (returned && typeof (returned as Promise<void>).then === 'function') {
          (returned as Promise<void>).then(undefined, (error: unknown) =>
            this.reportListenerError(error, String(name)),
          );
        }
      } catch (error) {
        this.reportListenerError(error, String(name));
      }
    }
  }

  private reportListenerError(error: unknown, eventName: string): void {
    if (this.onListenerError) {
      try {
        this.onListenerError(error, eventName);
      } catch {
        // The error handler itself failed; the observed call must still not be affected.
      }
      return;
    }
    if (this.warned) return;
    this.warned = true;
    const message = error instanceof Error ? error.message : String(error);
    process.emitWarning(
      `A '${eventName}' telemetry listener threw (${message}); the call continued. Pass telemetry.onListenerError to handle listener errors.`,
      {
        code: 'PROTOLINK_LISTENER_ERROR',
      },
    );
  }
}
