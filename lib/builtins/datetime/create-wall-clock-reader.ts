import { ToolInputError } from '../../errors/tool-input-error';
import { CURRENT_DATETIME_TOOL_NAME, WEEKDAYS } from './current-datetime-limits';
import type { WallClockFields, WallClockReader } from './wall-clock-fields';

/** Reads the fields of an instant in UTC without `Intl` (UTC needs no time zone database). */
export function readUtcWallClock(epochMilliseconds: number): WallClockFields {
  const date = new Date(epochMilliseconds);
  return {
    year: date.getUTCFullYear(),
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    hour: date.getUTCHours(),
    minute: date.getUTCMinutes(),
    second: date.getUTCSeconds(),
    weekday: date.getUTCDay(),
  };
}

const FORMAT_OPTIONS: Intl.DateTimeFormatOptions = {
  hourCycle: 'h23',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
  weekday: 'long',
};

/**
 * Builds a reader of the wall-clock fields of instants in one IANA time zone: exactly `UTC` is computed
 * without `Intl`; every other name goes through `Intl.DateTimeFormat` (English, 24-hour clock), which knows
 * the zone's offsets and daylight-saving rules from the ICU time zone database. There is no fallback to
 * the host's local time.
 *
 * @throws ToolInputError when `Intl` does not know the zone.
 */
export function createWallClockReader(timeZone: string): WallClockReader {
  if (timeZone === 'UTC') return readUtcWallClock;
  let formatter: Intl.DateTimeFormat;
  try {
    formatter = new Intl.DateTimeFormat('en-US', { ...FORMAT_OPTIONS, timeZone });
  } catch (error) {
    throw new ToolInputError(
      `${CURRENT_DATETIME_TOOL_NAME}: unknown or unavailable IANA timezone: ${JSON.stringify(timeZone)}. Use an IANA ` +
        "name such as 'UTC', 'Europe/Zurich' or 'America/New_York' (a Node.js build without full ICU knows no zone but UTC).",
      { toolName: CURRENT_DATETIME_TOOL_NAME, cause: error },
    );
  }
  return (epochMilliseconds) => {
    const fields: Record<string, string> = {};
    for (const part of formatter.formatToParts(epochMilliseconds)) fields[part.type] = part.value;
    return {
      year: Number(fields.year),
      month: Number(fields.month),
      day: Number(fields.day),
      hour: Number(fields.hour) % 24,
      minute: Number(fields.minute),
      second: Number(fields.second),
      weekday: WEEKDAYS.indexOf(fields.weekday),
    };
  };
}
