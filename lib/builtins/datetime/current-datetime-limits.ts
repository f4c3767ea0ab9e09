/** The name every `current_datetime` tool has. */
export const CURRENT_DATETIME_TOOL_NAME = 'current_datetime';

/** Fixed limits of `current_datetime` (reference section 1O). */
export const CURRENT_DATETIME_LIMITS = Object.freeze({
  /** Longest time zone name, in characters. */
  maxTimeZoneLength: 100,
  /** The zone used when none is given. */
  defaultTimeZone: 'UTC',
  /** Zones whose `Intl.DateTimeFormat` is kept per tool (the cache is cleared when full). */
  formatterCacheSize: 64,
});

/** English weekday names, Sunday first (the order of `Date.prototype.getUTCDay`). */
export const WEEKDAYS = Object.freeze([
  'Sunday',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
]);
