import { WEEKDAYS } from './current-datetime-limits';
import type { WallClockReader } from './wall-clock-fields';

/** What `current_datetime` returns. */
export interface CurrentDatetimeResult {
  /** The requested zone name, trimmed. */
  timezone: string;
  /** Local date and time with seconds and the UTC offset, e.g. `2025-01-01T13:00:00+01:00`. */
  iso8601: string;
  /** Local date, `YYYY-MM-DD`. */
  date: string;
  /** Local wall-clock time, `HH:MM:SS`. */
  time: string;
  /** English weekday name, e.g. `Wednesday`. */
  weekday: string;
  /** UTC offset, `+HH:MM` or `-HH:MM`. */
  utc_offset: string;
  /** Whole seconds since 1970-01-01T00:00:00Z. */
  unix_timestamp: number;
}

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}

/** Formats an offset in seconds as Python's `isoformat()` does: `±HH:MM`, with `:SS` only when needed. */
function formatIsoOffset(offsetSeconds: number): string {
  const sign = offsetSeconds < 0 ? '-' : '+';
  const magnitude = Math.abs(offsetSeconds);
  const text = `${sign}${pad(Math.floor(magnitude / 3600))}:${pad(Math.floor(magnitude / 60) % 60)}`;
  return magnitude % 60 === 0 ? text : `${text}:${pad(magnitude % 60)}`;
}

/** Formats an offset as whole minutes, floored as Python's `offset.total_seconds() // 60` does. */
function formatMinuteOffset(offsetSeconds: number): string {
  const minutes = Math.floor(offsetSeconds / 60);
  const sign = minutes < 0 ? '-' : '+';
  const magnitude = Math.abs(minutes);
  return `${sign}${pad(Math.floor(magnitude / 60))}:${pad(magnitude % 60)}`;
}

/**
 * Builds the seven result fields for an instant (truncated to whole seconds) in one zone. The UTC offset is
 * the difference between the zone's wall clock and UTC at that instant, so daylight saving time, half-hour
 * and 45-minute offsets, and historical offsets with seconds all come out as the time zone database says.
 */
export function buildCurrentDatetime(
  timezone: string,
  epochMilliseconds: number,
  readWallClock: WallClockReader,
): CurrentDatetimeResult {
  const seconds = Math.floor(epochMilliseconds / 1000);
  const instant = seconds * 1000;
  const local = readWallClock(instant);
  const asUtc = new Date(0);
  asUtc.setUTCFullYear(local.year, local.month - 1, local.day);
  asUtc.setUTCHours(local.hour, local.minute, local.second, 0);
  const offsetSeconds = Math.round((asUtc.getTime() - instant) / 1000);
  const date = `${pad(local.year, 4)}-${pad(local.month)}-${pad(local.day)}`;
  const time = `${pad(local.hour)}:${pad(local.minute)}:${pad(local.second)}`;
  return {
    timezone,
    iso8601: `${date}T${time}${formatIsoOffset(offsetSeconds)}`,
    date,
    time,
    weekday: WEEKDAYS[local.weekday],
    utc_offset: formatMinuteOffset(offsetSeconds),
    unix_timestamp: seconds,
  };
}
