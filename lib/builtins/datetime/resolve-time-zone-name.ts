import { ToolInputError } from '../../errors/tool-input-error';
import { CURRENT_DATETIME_LIMITS, CURRENT_DATETIME_TOOL_NAME } from './current-datetime-limits';

/** The characters IANA zone names are made of (`America/Port-au-Prince`, `Etc/GMT+2`, `EST5EDT`). */
const IANA_CHARACTERS = /^[A-Za-z0-9/_+-]+$/;
/** An offset written as a zone: `+02:00`, `-0530`, `UTC+1`, `GMT-03:30`, `Z+2`. */
const OFFSET_STYLE = /^(?:(?:UTC|GMT|UT|Z)\s*)?([+\-\u2212])\s*(\d{1,2})(?::?(\d{2}))?$/i;
/** IANA links that look like offsets but are real zone names (tzdata `backward`), all equal to UTC. */
const IANA_OFFSET_LINKS = new Set(['GMT+0', 'GMT-0', 'GMT0']);

function inputError(message: string): ToolInputError {
  return new ToolInputError(`${CURRENT_DATETIME_TOOL_NAME}: ${message}`, {
    toolName: CURRENT_DATETIME_TOOL_NAME,
  });
}

function describeValue(value: unknown): string {
  return value === null ? 'null' : typeof value;
}

/** Suggests the fixed-offset IANA zone for a whole-hour offset (note the inverted sign of `Etc/GMT±h`). */
function suggestFixedZone(sign: string, hours: string, minutes: string | undefined): string {
  const hourCount = Number(hours);
  if (hourCount === 0 && Number(minutes ?? 0) === 0) return "Use 'UTC'.";
  if ((minutes !== undefined && Number(minutes) !== 0) || hourCount > 14) {
    return 'Use the region instead, such as Asia/Kolkata for +05:30.';
  }
  const inverted = sign === '+' ? '-' : '+';
  return `Use a region such as Europe/Berlin, or Etc/GMT${inverted}${hourCount} for a fixed offset (IANA inverts the sign).`;
}

/**
 * Checks a requested time zone name and returns it trimmed. Names are IANA identifiers; a UTC offset
 * written as a zone (`+02:00`, `UTC+1`, `GMT-3`) is rejected with a suggestion. Whether the zone exists is
 * decided by `Intl` when the formatter is built.
 *
 * @throws ToolInputError for a value that is not a string, an empty or too long name, characters no IANA
 * name has, or an offset-style name.
 */
export function resolveTimeZoneName(raw: unknown): string {
  const value = raw === undefined || raw === null ? CURRENT_DATETIME_LIMITS.defaultTimeZone : raw;
  if (typeof value !== 'string') {
    throw inputError(`timezone must be a string such as 'Europe/Zurich', got ${describeValue(value)}.`);
  }
  const name = value.trim();
  if (name.length === 0) throw inputError("timezone must not be empty; pass an IANA name such as 'UTC'.");
  const maxLength = CURRENT_DATETIME_LIMITS.maxTimeZoneLength;
  if (name.length > maxLength) throw inputError(`timezone must be at most ${maxLength} characters.`);
  if (IANA_OFFSET_LINKS.has(name)) return name;
  const offset = OFFSET_STYLE.exec(name);
  if (offset) {
    const sign = offset[1] === '+' ? '+' : '-';
    throw inputError(
      `'${name}' is a UTC offset, not an IANA timezone name. ${suggestFixedZone(sign, offset[2], offset[3])}`,
    );
  }
  if (!IANA_CHARACTERS.test(name)) {
    throw inputError(
      `unknown or unavailable IANA timezone: ${JSON.stringify(name)}; IANA names use only letters, digits and / _ + - ` +
        "(e.g. 'America/New_York').",
    );
  }
  return name;
}
