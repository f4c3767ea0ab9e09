import { SessionStoreDataError } from '../errors/session-store-data-error';
import type { SessionBusMessage } from '../state/session-bus';
import type { SessionKey } from '../state/session-key';
import type { RedisCommands } from './redis-commands';

/** Entries read per round trip. */
const READ_PAGE = 100;

/** A Redis Stream entry id: `<milliseconds>-<sequence>`. */
const ENTRY_ID = /^([0-9]{1,20})-([0-9]{1,20})$/;

/** The cursor of a subscription to a bus log that holds nothing yet: every entry comes after it. */
export const BEFORE_FIRST_ENTRY = '0-0';

/** Whether the text is a Redis Stream entry id (`<ms>-<seq>`). */
export function isEntryId(text: unknown): text is string {
  return typeof text === 'string' && ENTRY_ID.test(text);
}

/** Whether entry id `id` comes after entry id `cursor` (both as {@link isEntryId} accepts). */
export function isEntryAfter(id: string, cursor: string): boolean {
  const [idTime, idSequence] = toParts(id);
  const [cursorTime, cursorSequence] = toParts(cursor);
  return idTime > cursorTime || (idTime === cursorTime && idSequence > cursorSequence);
}

function toParts(id: string): [bigint, bigint] {
  const match = ENTRY_ID.exec(id);
  return match ? [BigInt(match[1]!), BigInt(match[2]!)] : [0n, 0n];
}

/** Options of {@link RedisBusReader}. */
export interface RedisBusReaderOptions {
  /** The connection the log is read on (never the subscriber's: a subscribed connection sends nothing else). */
  commands: RedisCommands;
  /** The session whose log this is (named in errors). */
  key: SessionKey;
  /** The session's bus log (a Redis Stream). */
  logKey: string;
  /** The last entry already delivered or not wanted (the log's last entry when the subscription began). */
  cursor: string;
  /** Called with each message after the cursor, once and in order. */
  listener: (message: SessionBusMessage) => void;
  /** An entry or reply that is not what Protolink writes (the entry is skipped; a failed read is said once). */
  onDataError: (error: SessionStoreDataError) => void;
  /** A read that failed for another reason (Redis unavailable); the next wake-up reads again. */
  onReadError: (error: unknown) => void;
  /** A read succeeded (an outage reported through `onReadError` is over). */
  onReadSucceeded: () => void;
}

/**
 * Delivers the entries of one session's bus log that come after a cursor to one subscription, each exactly
 * once and in log order: reads never overlap, the cursor moves past each entry before it is delivered, and
 * a wake-up that arrives during a read makes the reader read once more when it is done.
 */
export class RedisBusReader {
  private cursor: string;
  private reading = false;
  private readAgain = false;
  private stopped = false;
  /** Whether a read failed with a data error that was reported (said once until a read succeeds). */
  private dataErrorReported = false;

  constructor(private readonly options: RedisBusReaderOptions) {
    this.cursor = options.cursor;
  }

  /**
   * Reads what the log holds after the cursor and delivers it. With `entryId` (the entry a wake-up
   * announces), does nothing when that entry was delivered already.
   */
  wake(entryId?: string): void {
    if (this.stopped) return;
    if (entryId !== undefined && !isEntryAfter(entryId, this.cursor)) return;
    if (this.reading) {
      this.readAgain = true;
      return;
    }
    this.reading = true;
    this.readAgain = false;
    this.readAfterCursor()
      .then(
        () => {
          this.dataErrorReported = false;
          this.options.onReadSucceeded();
        },
        (error: unknown) => this.report(error),
      )
      .finally(() => {
        this.reading = false;
        if (this.readAgain) this.wake();
      });
  }

  /** Delivers nothing more, not even the rest of a read under way. */
  stop(): void {
    this.stopped = true;
  }

  private async readAfterCursor(): Promise<void> {
    const { commands, logKey, key } = this.options;
    for (;;) {
      const page = await commands.send(
        ['XRANGE', logKey, `(${this.cursor}`, '+', 'COUNT', String(READ_PAGE)],
        key.sessionId,
      );
      if (!Array.isArray(page)) throw this.dataError('a bus log read that is not a list of entries');
      for (const entry of page) {
        if (this.stopped) return;
        this.deliver(entry);
      }
      if (page.length < READ_PAGE) return;
    }
  }

  private deliver(entry: unknown): void {
    const id: unknown = Array.isArray(entry) ? entry[0] : undefined;
    // Without an id the cursor cannot move past the entry: the read fails rather than loop on it.
    if (!isEntryId(id)) throw this.dataError('a bus log entry without an entry id');
    this.cursor = id;
    const fields: unknown = (entry as unknown[])[1];
    const at = Array.isArray(fields)
      ? fields.findIndex((field, index) => index % 2 === 0 && String(field) === 'm')
      : -1;
    if (!Array.isArray(fields) || at < 0 || at + 1 >= fields.length) {
      this.options.onDataError(this.dataError('a bus log entry Protolink did not write'));
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(String(fields[at + 1]));
    } catch {
      message = undefined;
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      this.options.onDataError(this.dataError('a bus message that is not a JSON object'));
      return;
    }
    try {
      this.options.listener(message as SessionBusMessage);
    } catch {
      // A listener that throws must not keep the next entries from it, nor reach the connection.
    }
  }

  private report(error: unknown): void {
    if (this.stopped) return;
    if (!(error instanceof SessionStoreDataError)) {
      this.options.onReadError(error);
      return;
    }
    if (!this.dataErrorReported) this.options.onDataError(error);
    this.dataErrorReported = true;
  }

  private dataError(reason: string): SessionStoreDataError {
    return new SessionStoreDataError({ sessionId: this.options.key.sessionId, reason, provider: 'redis' });
  }
}
