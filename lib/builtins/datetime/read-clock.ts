import { ToolRuntimeError } from '../../errors/tool-runtime-error';
import { CURRENT_DATETIME_TOOL_NAME } from './current-datetime-limits';

/** A source of the current time: a `Date` or milliseconds since the epoch. */
export type Clock = () => Date | number;

/** A day inside each end of Python's datetime range (years 1–9999), so every zone stays inside it. */
const EARLIEST = Date.UTC(2000, 0, 2) - 730_119 * 86_400_000;
const LATEST = Date.UTC(9999, 11, 30);

/**
 * Reads a clock and returns the time in milliseconds since the epoch.
 *
 * @throws ToolRuntimeError when the clock returns something other than a valid `Date` or finite number, or a
 * time outside the years 1–9999.
 */
export function readClock(clock: Clock): number {
  const value = clock();
  const milliseconds = value instanceof Date ? value.getTime() : value;
  if (typeof milliseconds !== 'number' || !Number.isFinite(milliseconds)) {
    throw new ToolRuntimeError(
      `${CURRENT_DATETIME_TOOL_NAME}: the clock returned ${value instanceof Date ? 'an invalid Date' : String(value)}; ` +
        'a clock must return a valid Date or milliseconds since the epoch.',
      { toolName: CURRENT_DATETIME_TOOL_NAME },
    );
  }
  if (milliseconds < EARLIEST || milliseconds > LATEST) {
    throw new ToolRuntimeError(
      `${CURRENT_DATETIME_TOOL_NAME}: the clock returned ${new Date(milliseconds).toISOString()}, outside the years 1–9999.`,
      { toolName: CURRENT_DATETIME_TOOL_NAME },
    );
  }
  return milliseconds;
}
