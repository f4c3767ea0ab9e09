import { AsyncLocalStorage } from 'node:async_hooks';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { SessionBusMessageTooLargeError } from '../../errors/session-bus-message-too-large-error';
import { SessionStoreUnavailableError } from '../../errors/session-store-unavailable-error';
import type { StreamOwner } from '../../state/call-leases';
import type { EventLogSend } from '../../state/event-log';
import type { SessionBusMessage, SessionBusSubscription } from '../../state/session-bus';
import type { SessionKey } from '../../state/session-key';
import type { SharedSessionState } from '../serve/shared-session-state';
import { toAnswerTooBig, toBoundedLinkMessage } from './bound-link-message';
import type { ResumableEventStore } from '../../state/resumable-event-store';

/** The stream id the SDK's transport stores a session's standalone (GET) notifications under. */
export const STANDALONE_STREAM_ID = '_GET_stream';

/** Most streams of one session another process follows that a process remembers (the oldest go first). */
const MAX_FOLLOWED_STREAMS = 1_000;

/** A response the store refused is tried again after this, then twice as long each time up to the most. */
const STORE_RETRY_FIRST_MS = 250;
const STORE_RETRY_MAX_MS = 2_000;

/**
 * How long a stream's claim lasts unrenewed: the session's idle timeout, and never less than the time a
 * follower takes to tell that the claiming process died (its heartbeat's 3 s, then two polls), with margin.
 */
export function claimTtlMs(idleTimeoutMs: number): number {
  return Math.max(idleTimeoutMs, 10_000);
}

/**
 * The ids of the client's requests in the POST being handled: the first event the transport stores on a new
 * stream (in the same async context) tells which requests that stream answers, and that this process runs them.
 */
export const postRequestIds = new AsyncLocalStorage<readonly (string | number)[]>();

/** What a process of a session says to the others on the session's channel. */
export type SessionLinkMessage =
  /** A client's answer to a request `to` sent (its id rewritten back by the receiver). */
  | { t: 'answer'; to: string; m: Record<string, unknown> }
  /** A client's `notifications/cancelled`, for whichever process runs the request it names. */
  | { t: 'cancel'; from: string; m: Record<string, unknown> }
  /** The client chose a log level. */
  | { t: 'level'; from: string; level: string }
  /** The session was deleted: every process drops its copy. */
  | { t: 'closed'; from: string }
  /** Events were stored on stream `s`: whoever follows it reads them from the log. */
  | { t: 'wake'; s: string }
  /** A process follows stream `s` (a resumed stream): the one writing it wakes it from now on. */
  | { t: 'follow'; s: string };

/** What a {@link SessionLink} does with what the other processes say. */
export interface SessionLinkHandlers {
  /** A client's `notifications/cancelled` arrived on another process. */
  onCancel(message: Record<string, unknown>): void;
  /** The client chose a log level on another process. */
  onLevel(level: string): void;
  /** The session was deleted on another process. */
  onClosed(): void;
  /** The bus failed (a message that is not JSON, a lost subscription). */
  onError(error: unknown): void;
  /** This link was closed (this process's copy of the session is gone). */
  onLinkClosed?(): void;
}

/**
 * One session's link to the other processes serving it: its channel on the shared bus, the rewriting that
 * makes the ids of the server's requests to the client unique over every process (`<instance>-<n>`, so a
 * client's answer can be routed to the process that waits for it), the event store on the shared log, and
 * the wake-ups of streams followed here or elsewhere.
 */
export class SessionLink {
  private subscription: SessionBusSubscription | undefined;
  private readonly followedElsewhere = new Set<string>();
  private readonly wakeListeners = new Map<string, Set<() => void>>();
  /** The streams this process claimed and runs requests of, with the requests not yet answered. */
  private readonly claimed = new Map<string, { owner: StreamOwner; unanswered: Set<string | number> }>();
  private closed = false;
  /** Whether the last event could not be stored (the shared store is unavailable). */
  private storeDown = false;
  /** The session's event store on the shared log (closing it deletes nothing: only a DELETE does). */
  readonly eventStore: ResumableEventStore;

  constructor(
    readonly key: SessionKey,
    private readonly instanceId: string,
    private readonly shared: SharedSessionState,
    private readonly handlers: SessionLinkHandlers,
  ) {
    const events = shared.events;
    this.eventStore = {
      storeEvent: async (streamId, message) => {
        try {
          await this.claim(streamId);
          const eventId = await events.append(key, streamId, message);
          this.storeDown = false;
          this.answered(streamId, message);
          this.stored(streamId);
          return eventId;
        } catch (error) {
          if (!(error instanceof SessionStoreUnavailableError)) throw error;
          // The store is down: the event still goes out on the stream it belongs to, live, with no id (so
          // nobody resumes from it), and a running call still delivers its result. Said once per outage.
          if (!this.storeDown) this.handlers.onError(error);
          this.storeDown = true;
          // A response is stored once the store is back: a client that was not on the stream when it went
          // out (it let go of it, or its connection dropped) resumes and gets it, never an endless wait.
          if (isResponse(message)) void this.storeLater(streamId, message);
          return '';
        }
      },
      getStreamIdForEventId: (eventId) => events.streamOf(key, eventId),
      isStreamComplete: (streamId) => events.isStreamComplete(key, streamId),
      replayEventsAfter: (lastEventId, { send }) => events.replayAfter(key, lastEventId, send),
    };
  }

  /**
   * Sends the events of a followed stream after `cursor`, even when the bounds dropped the cursor's own event
   * (see `EventLog.readAfter`).
   */
  readAfter(streamId: string, cursor: string, send: EventLogSend): Promise<boolean> {
    return this.shared.events.readAfter(this.key, streamId, cursor, send);
  }

  /** Subscribes to the session's channel (before the transport sends anything). */
  async open(): Promise<void> {
    this.subscription = await this.shared.bus.subscribe(this.key, (message) => this.receive(message), {
      onError: (error) => this.handlers.onError(error),
    });
    if (this.closed) await this.subscription.unsubscribe();
  }

  /** Ends the subscription; the session's shared state stays (other processes may serve it). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.wakeListeners.clear();
    this.claimed.clear();
    this.handlers.onLinkClosed?.();
    await this.subscription?.unsubscribe();
  }

  /** Whether {@link close} was called. */
  get isClosed(): boolean {
    return this.closed;
  }

  /** How many streams this process claimed whose requests are not all answered (calls, waits, still here). */
  get pendingClaims(): number {
    return this.claimed.size;
  }

  /**
   * Renews the claims of the streams whose requests this process still runs, so a follower elsewhere can
   * still tell who runs them (and that it died) however long the calls take.
   *
   * @throws SessionStoreUnavailableError when the store cannot be reached (the next renewal tries again).
   */
  async renewClaims(): Promise<void> {
    const leases = this.shared.leases;
    if (!leases || this.closed) return;
    for (const [streamId, claim] of [...this.claimed]) {
      // Answered meanwhile (its claim deleted): renewing it now would bring it back.
      if (this.claimed.get(streamId) !== claim) continue;
      await leases.claimStream(
        this.key,
        streamId,
        claim.owner,
        claimTtlMs(this.shared.sessions.idleTimeoutMs),
      );
    }
  }

  /**
   * Makes the transport's server-to-client request ids unique over the processes (`<instance>-<n>`) and
   * turns the client's answers back into the server's own ids. Call after the server connected to it.
   */
  rewriteIds(transport: StreamableHTTPServerTransport): void {
    const prefix = `${this.instanceId}-`;
    const send = transport.send.bind(transport);
    transport.send = (message, options) => send(toGlobalIds(message, prefix), options);
    const receive = transport.onmessage;
    if (!receive) return;
    transport.onmessage = (message, extra) => receive(toLocalIds(message, prefix), extra);
  }

  /** The process a client's answer belongs to, from its id; undefined when it is not a routed answer. */
  static ownerOfAnswer(message: unknown): string | undefined {
    if (typeof message !== 'object' || message === null) return undefined;
    const answer = message as { id?: unknown; method?: unknown; result?: unknown; error?: unknown };
    if (answer.method !== undefined || (answer.result === undefined && answer.error === undefined))
      return undefined;
    if (typeof answer.id !== 'string') return undefined;
    const match = /^([0-9a-f]{12})-\d+$/.exec(answer.id);
    return match?.[1];
  }

  /**
   * Tells the other processes something, kept small (`toBoundedLinkMessage`). A client's answer too big for
   * the bus reaches the process that asked as an error for its request; another message too big is not sent
   * (said to `onError`): this process still acts on it.
   */
  async publish(message: SessionLinkMessage): Promise<void> {
    const bounded = toBoundedLinkMessage(message);
    if (!bounded) return;
    try {
      await this.shared.bus.publish(this.key, bounded as unknown as SessionBusMessage);
    } catch (error) {
      if (!(error instanceof SessionBusMessageTooLargeError)) throw error;
      const instead = toAnswerTooBig(bounded, error);
      if (!instead) return this.handlers.onError(error);
      await this.shared.bus.publish(this.key, instead as unknown as SessionBusMessage);
    }
  }

  /**
   * Calls `listener` whenever events may have been stored on the stream (here or on another process); when
   * the stream is written elsewhere, asks the writer to wake it. Returns the function that stops listening.
   */
  async follow(streamId: string, listener: () => void): Promise<() => void> {
    let listeners = this.wakeListeners.get(streamId);
    if (!listeners) {
      listeners = new Set();
      this.wakeListeners.set(streamId, listeners);
    }
    listeners.add(listener);
    const stop = () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.wakeListeners.get(streamId) === listeners)
        this.wakeListeners.delete(streamId);
    };
    if (streamId !== STANDALONE_STREAM_ID) await this.publish({ t: 'follow', s: streamId });
    return stop;
  }

  /** Records this process as the owner of a new stream of the POST being handled, before its first event. */
  private async claim(streamId: string): Promise<void> {
    const leases = this.shared.leases;
    if (!leases || streamId === STANDALONE_STREAM_ID || this.claimed.has(streamId)) return;
    const requestIds = postRequestIds.getStore();
    if (!requestIds || requestIds.length === 0) return;
    if (this.claimed.size >= MAX_FOLLOWED_STREAMS) {
      const oldest = this.claimed.keys().next().value;
      if (oldest !== undefined) this.claimed.delete(oldest);
    }
    const owner: StreamOwner = { instanceId: this.instanceId, requestIds };
    this.claimed.set(streamId, { owner, unanswered: new Set(requestIds) });
    try {
      await leases.claimStream(this.key, streamId, owner, claimTtlMs(this.shared.sessions.idleTimeoutMs));
    } catch (error) {
      // Not claimed after all: the next event of the stream tries again.
      this.claimed.delete(streamId);
      throw error;
    }
  }

  /** Tries again to store a response the store refused, for as long as a claim lasts, then gives up (said). */
  private async storeLater(streamId: string, message: Record<string, unknown>): Promise<void> {
    const until = Date.now() + claimTtlMs(this.shared.sessions.idleTimeoutMs);
    for (let delay = STORE_RETRY_FIRST_MS; ; delay = Math.min(delay * 2, STORE_RETRY_MAX_MS)) {
      await new Promise((resolve) => setTimeout(resolve, delay).unref());
      // Goes on after this process's copy of the session closed: the response belongs to the shared log.
      try {
        await this.shared.events.append(this.key, streamId, message);
        this.storeDown = false;
        this.answered(streamId, message);
        this.stored(streamId);
        return;
      } catch (error) {
        if (!(error instanceof SessionStoreUnavailableError) || Date.now() + delay > until) {
          this.handlers.onError(error);
          return;
        }
      }
    }
  }

  /** Forgets a claimed stream once each of its requests was answered: nothing is left to renew or to tell lost. */
  private answered(streamId: string, message: Record<string, unknown>): void {
    const claim = this.claimed.get(streamId);
    const { id, method } = message as { id?: unknown; method?: unknown };
    if (!claim || method !== undefined || (typeof id !== 'string' && typeof id !== 'number')) return;
    claim.unanswered.delete(id);
    if (claim.unanswered.size > 0) return;
    this.claimed.delete(streamId);
    // A store that is down forgets it too, when the claim expires.
    void this.shared.leases?.releaseStream?.(this.key, streamId).catch(() => undefined);
  }

  private stored(streamId: string): void {
    this.wake(streamId);
    // Standalone notifications go to whichever process holds the GET stream; others only when followed.
    if (streamId === STANDALONE_STREAM_ID || this.followedElsewhere.has(streamId))
      void this.publish({ t: 'wake', s: streamId }).catch((error: unknown) => this.handlers.onError(error));
  }

  private wake(streamId: string): void {
    for (const listener of [...(this.wakeListeners.get(streamId) ?? [])]) listener();
  }

  private receive(raw: SessionBusMessage): void {
    if (this.closed) return;
    const message = raw as unknown as SessionLinkMessage;
    switch (message.t) {
      case 'answer':
        if (message.to === this.instanceId && isObject(message.m)) this.deliver(message.m);
        return;
      case 'cancel':
        if (message.from !== this.instanceId && isObject(message.m)) this.handlers.onCancel(message.m);
        return;
      case 'level':
        if (message.from !== this.instanceId && typeof message.level === 'string')
          this.handlers.onLevel(message.level);
        return;
      case 'closed':
        if (message.from !== this.instanceId) this.handlers.onClosed();
        return;
      case 'wake':
        if (typeof message.s === 'string') this.wake(message.s);
        return;
      case 'follow':
        if (typeof message.s !== 'string') return;
        if (this.followedElsewhere.size >= MAX_FOLLOWED_STREAMS) {
          const oldest = this.followedElsewhere.values().next().value;
          if (oldest !== undefined) this.followedElsewhere.delete(oldest);
        }
        this.followedElsewhere.add(message.s);
        // Events stored before the follower's request arrived: let it read them now.
        void this.publish({ t: 'wake', s: message.s }).catch((error: unknown) =>
          this.handlers.onError(error),
        );
        return;
      default:
        this.handlers.onError(
          new Error(`unknown message on the session's channel: ${String((message as { t?: unknown }).t)}`),
        );
    }
  }

  private deliverTo: ((message: Record<string, unknown>) => void) | undefined;

  /** Where routed answers go: the transport's `onmessage` (set once the server connected). */
  onAnswer(deliver: (message: Record<string, unknown>) => void): void {
    this.deliverTo = deliver;
  }

  private deliver(message: Record<string, unknown>): void {
    this.deliverTo?.(message);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function toGlobalIds(message: JSONRPCMessage, prefix: string): JSONRPCMessage {
  const outgoing = message as {
    id?: unknown;
    method?: unknown;
    params?: { requestId?: unknown };
  };
  if (typeof outgoing.method !== 'string') return message;
  if (typeof outgoing.id === 'number') return { ...message, id: `${prefix}${outgoing.id}` } as JSONRPCMessage;
  if (outgoing.method === 'notifications/cancelled' && typeof outgoing.params?.requestId === 'number') {
    return {
      ...message,
      params: { ...outgoing.params, requestId: `${prefix}${outgoing.params.requestId}` },
    } as JSONRPCMessage;
  }
  return message;
}

function toLocalIds(message: JSONRPCMessage, prefix: string): JSONRPCMessage {
  const incoming = message as { id?: unknown; method?: unknown };
  if (incoming.method !== undefined || typeof incoming.id !== 'string' || !incoming.id.startsWith(prefix))
    return message;
  const local = Number(incoming.id.slice(prefix.length));
  return Number.isSafeInteger(local) ? ({ ...message, id: local } as JSONRPCMessage) : message;
}

/** A JSON-RPC response (result or error): the end of the request it answers. */
function isResponse(message: Record<string, unknown>): boolean {
  return (
    message.method === undefined &&
    (typeof message.id === 'string' || typeof message.id === 'number') &&
    (message.result !== undefined || message.error !== undefined)
  );
}
