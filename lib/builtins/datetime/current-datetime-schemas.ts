import type { JsonSchema } from '../../tools/json-schema';
import { CURRENT_DATETIME_LIMITS, WEEKDAYS } from './current-datetime-limits';

/** Builds the input JSON Schema of `current_datetime` (a fresh object per tool). */
export function buildCurrentDatetimeInputSchema(): JsonSchema {
  return {
    type: 'object',
    properties: {
      timezone: {
        type: 'string',
        minLength: 1,
        maxLength: CURRENT_DATETIME_LIMITS.maxTimeZoneLength,
        default: CURRENT_DATETIME_LIMITS.defaultTimeZone,
        description:
          'IANA timezone name such as UTC, Europe/Zurich, or America/New_York (not an offset such as +02:00).',
      },
    },
    required: [],
    additionalProperties: false,
  };
}

/**
 * Builds the output JSON Schema of `current_datetime`: closed, all seven fields required. `time` is a
 * local wall-clock time without an offset, so it is described by a pattern: JSON Schema's `time` format
 * (RFC 3339 full-time) requires an offset and would reject it.
 */
export function buildCurrentDatetimeOutputSchema(): JsonSchema {
  return {
    type: 'object',
    properties: {
      timezone: { type: 'string' },
      iso8601: { type: 'string', format: 'date-time' },
      date: { type: 'string', format: 'date' },
      time: { type: 'string', pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]$' },
      weekday: { type: 'string', enum: [...WEEKDAYS] },
      utc_offset: { type: 'string', pattern: '^[+-][0-9]{2}:[0-5][0-9]$' },
      unix_timestamp: { type: 'integer' },
    },
    required: ['timezone', 'iso8601', 'date', 'time', 'weekday', 'utc_offset', 'unix_timestamp'],
    additionalProperties: false,
  };
}
