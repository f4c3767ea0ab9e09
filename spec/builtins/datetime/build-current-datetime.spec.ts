import { buildCurrentDatetime } from '../../../lib/builtins/datetime/build-current-datetime';
import type { WallClockFields } from '../../../lib/builtins/datetime/wall-clock-fields';

/** A wall clock shifted from UTC by a fixed number of seconds, standing in for a zone. */
function shiftedClock(offsetSeconds: number) {
  return (epochMilliseconds: number): WallClockFields => {
    const date = new Date(epochMilliseconds + offsetSeconds * 1000);
    return {
      year: date.getUTCFullYear(),
      month: date.getUTCMonth() + 1,
      day: date.getUTCDate(),
      hour: date.getUTCHours(),
      minute: date.getUTCMinutes(),
      second: date.getUTCSeconds(),
      weekday: date.getUTCDay(),
    };
  };
}

describe('buildCurrentDatetime', () => {
  describe('buildCurrentDatetime()', () => {
    it('formats positive, negative and zero offsets as +HH:MM', () => {
      const instant = Date.UTC(2026, 0, 1, 12);
      expect(buildCurrentDatetime('A', instant, shiftedClock(0)).utc_offset).toBe('+00:00');
      expect(buildCurrentDatetime('A', instant, shiftedClock(20_700)).utc_offset).toBe('+05:45');
      expect(buildCurrentDatetime('A', instant, shiftedClock(-12_600)).utc_offset).toBe('-03:30');
    });

    it('writes offsets with seconds in iso8601 and floors them to minutes in utc_offset, as Python does', () => {
      const result = buildCurrentDatetime('A', Date.UTC(1970, 5, 1, 12), shiftedClock(-2_670));
      expect(result.iso8601).toBe('1970-06-01T11:15:30-00:44:30');
      expect(result.utc_offset).toBe('-00:45');
      expect(buildCurrentDatetime('A', Date.UTC(1900, 0, 1), shiftedClock(1_172)).iso8601).toBe(
        '1900-01-01T00:19:32+00:19:32',
      );
    });

    it('pads years below 1000 to four digits and handles years below 100', () => {
      const instant = new Date(0).setUTCFullYear(33, 3, 3);
      const result = buildCurrentDatetime('UTC', instant, shiftedClock(3_600));
      expect(result.iso8601).toBe('0033-04-03T01:00:00+01:00');
      expect(result.weekday).toBe('Sunday');
    });

    it('truncates negative timestamps toward the earlier second', () => {
      const result = buildCurrentDatetime('UTC', -1, shiftedClock(0));
      expect(result).toMatchObject({ iso8601: '1969-12-31T23:59:59+00:00', unix_timestamp: -1 });
    });
  });
});
