import { ToolInputError } from '../../../lib/errors/tool-input-error';
import {
  createWallClockReader,
  readUtcWallClock,
} from '../../../lib/builtins/datetime/create-wall-clock-reader';

describe('createWallClockReader', () => {
  describe('createWallClockReader()', () => {
    it('reads exactly UTC without Intl', () => {
      expect(createWallClockReader('UTC')).toBe(readUtcWallClock);
      expect(readUtcWallClock(Date.UTC(2026, 2, 8, 6, 59, 59))).toEqual({
        year: 2026,
        month: 3,
        day: 8,
        hour: 6,
        minute: 59,
        second: 59,
        weekday: 0,
      });
    });

    it('reads the wall clock of an IANA zone, with the English weekday index', () => {
      const read = createWallClockReader('Asia/Kathmandu');
      expect(read(Date.UTC(2026, 2, 8, 18, 15))).toEqual({
        year: 2026,
        month: 3,
        day: 9,
        hour: 0,
        minute: 0,
        second: 0,
        weekday: 1,
      });
    });

    it('rejects a zone Intl does not know, keeping the RangeError as the cause', () => {
      let caught: unknown;
      try {
        createWallClockReader('Atlantis/Capital');
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ToolInputError);
      expect((caught as ToolInputError).message).toBe(
        'current_datetime: unknown or unavailable IANA timezone: "Atlantis/Capital". Use an IANA name such as ' +
          "'UTC', 'Europe/Zurich' or 'America/New_York' (a Node.js build without full ICU knows no zone but UTC).",
      );
      expect((caught as ToolInputError).cause).toBeInstanceOf(RangeError);
    });
  });
});
