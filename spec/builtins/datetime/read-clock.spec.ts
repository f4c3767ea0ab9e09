import { ToolRuntimeError } from '../../../lib/errors/tool-runtime-error';
import { readClock } from '../../../lib/builtins/datetime/read-clock';

describe('readClock', () => {
  describe('readClock()', () => {
    it('returns milliseconds from a Date or a number', () => {
      expect(readClock(() => new Date('2026-01-01T00:00:00Z'))).toBe(Date.UTC(2026, 0, 1));
      expect(readClock(() => 1234)).toBe(1234);
    });

    it('accepts the first and last safe days of years 1–9999', () => {
      expect(readClock(() => new Date('0001-01-02T00:00:00Z'))).toBe(Date.parse('0001-01-02T00:00:00Z'));
      expect(readClock(() => Date.UTC(9999, 11, 30))).toBe(Date.UTC(9999, 11, 30));
    });

    it('rejects invalid dates, non-numbers and times outside years 1–9999', () => {
      expect(() => readClock(() => Number.NaN)).toThrow(ToolRuntimeError);
      expect(() => readClock(() => Number.NaN)).toThrow('current_datetime: the clock returned NaN;');
      expect(() => readClock(() => '2026' as unknown as number)).toThrow('the clock returned 2026;');
      expect(() => readClock(() => Date.UTC(9999, 11, 31))).toThrow(
        'current_datetime: the clock returned 9999-12-31T00:00:00.000Z, outside the years 1–9999.',
      );
      expect(() => readClock(() => new Date('0001-01-01T00:00:00Z'))).toThrow('outside the years 1–9999');
    });
  });
});
