import { ToolDefinitionError } from '../../errors/tool-definition-error';
import { lazyRequire } from '../../runtime/lazy-require';
import { NativeTool } from '../../tools/native-tool';
import { CURRENT_DATETIME_LIMITS, CURRENT_DATETIME_TOOL_NAME } from './current-datetime-limits';
import {
  buildCurrentDatetimeInputSchema,
  buildCurrentDatetimeOutputSchema,
} from './current-datetime-schemas';
import type { Clock } from './read-clock';
import type { WallClockReader } from './wall-clock-fields';

// Zone resolution, clock reading and formatting load with the first call, not on import.
const loadClockReader = lazyRequire((): typeof import('./create-wall-clock-reader') =>
  require('./create-wall-clock-reader'),
);
const loadDatetimeBuilder = lazyRequire((): typeof import('./build-current-datetime') =>
  require('./build-current-datetime'),
);
const loadReadClock = lazyRequire((): typeof import('./read-clock') => require('./read-clock'));
const loadZoneResolver = lazyRequire((): typeof import('./resolve-time-zone-name') =>
  require('./resolve-time-zone-name'),
);

/** Options of {@link currentDatetime}. */
export interface CurrentDatetimeOptions {
  /** Where the current time comes from (default `Date.now`); a test seam, e.g. `() => new Date('2026-03-08T07:00:00Z')`. */
  clock?: Clock;
}

const DESCRIPTION =
  'Return the current date, time, weekday, UTC offset and Unix timestamp for an IANA timezone (default UTC). ' +
  'Use this when the answer depends on the actual current time.';

/**
 * Creates a fresh `current_datetime` tool (no capability; tags builtin, datetime, read-only). Zones come
 * from `Intl` (the ICU time zone database shipped with Node.js); exactly `UTC` needs no database. Unknown
 * names and offsets written as zones are rejected, never replaced by the host's local time.
 *
 * @throws ToolDefinitionError when `clock` is given but is not a function.
 */
export function currentDatetime(options: CurrentDatetimeOptions = {}): NativeTool {
  const clock = options.clock ?? Date.now;
  if (typeof clock !== 'function') {
    throw new ToolDefinitionError(
      `currentDatetime(): the 'clock' option must be a function returning a Date or milliseconds, got ${typeof clock}.`,
      { toolName: CURRENT_DATETIME_TOOL_NAME },
    );
  }
  const readers = new Map<string, WallClockReader>();
  const readerFor = (timeZone: string): WallClockReader => {
    let reader = readers.get(timeZone);
    if (!reader) {
      reader = loadClockReader().createWallClockReader(timeZone);
      if (readers.size >= CURRENT_DATETIME_LIMITS.formatterCacheSize) readers.clear();
      readers.set(timeZone, reader);
    }
    return reader;
  };
  return new NativeTool({
    name: CURRENT_DATETIME_TOOL_NAME,
    description: DESCRIPTION,
    inputSchema: buildCurrentDatetimeInputSchema(),
    outputSchema: buildCurrentDatetimeOutputSchema(),
    tags: ['builtin', 'datetime', 'read-only'],
    capabilities: [],
    examples: [{ timezone: 'Europe/Zurich' }],
    metadata: { builtin: { id: CURRENT_DATETIME_TOOL_NAME, options: {} } },
    func: (args) => {
      const timezone = loadZoneResolver().resolveTimeZoneName(args.timezone);
      const reader = readerFor(timezone);
      return loadDatetimeBuilder().buildCurrentDatetime(timezone, loadReadClock().readClock(clock), reader);
    },
  });
}
