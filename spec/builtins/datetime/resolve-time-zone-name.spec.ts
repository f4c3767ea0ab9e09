import { ToolInputError } from '../../../lib/errors/tool-input-error';
import { resolveTimeZoneName } from '../../../lib/builtins/datetime/resolve-time-zone-name';

describe('resolveTimeZoneName', () => {
  describe('resolveTimeZoneName()', () => {
    it('returns UTC for a missing or null name', () => {
      expect(resolveTimeZoneName(undefined)).toBe('UTC');
      expect(resolveTimeZoneName(null)).toBe('UTC');
    });

    it('trims the name and keeps IANA spellings, including those that contain digits and signs', () => {
      expect(resolveTimeZoneName('\tEurope/Zurich\n')).toBe('Europe/Zurich');
      for (const name of [
        'Etc/GMT+2',
        'Etc/GMT-14',
        'EST5EDT',
        'America/Port-au-Prince',
        'GMT+0',
        'GMT-0',
        'GMT0',
      ]) {
        expect(resolveTimeZoneName(name)).toBe(name);
      }
    });

    it('rejects a value that is not a string', () => {
      expect(() => resolveTimeZoneName(5)).toThrow(ToolInputError);
      expect(() => resolveTimeZoneName(5)).toThrow(
        "current_datetime: timezone must be a string such as 'Europe/Zurich', got number.",
      );
    });

    it('rejects a name longer than 100 characters after trimming', () => {
      expect(() => resolveTimeZoneName('A'.repeat(101))).toThrow(
        'current_datetime: timezone must be at most 100 characters.',
      );
      expect(resolveTimeZoneName(`  ${'A'.repeat(100)}  `)).toHaveLength(100);
    });

    it('rejects offsets written as zones, suggesting the Etc/GMT zone with the inverted sign', () => {
      expect(() => resolveTimeZoneName('+03')).toThrow(
        "current_datetime: '+03' is a UTC offset, not an IANA timezone name. Use a region such as Europe/Berlin, or " +
          'Etc/GMT-3 for a fixed offset (IANA inverts the sign).',
      );
      expect(() => resolveTimeZoneName('GMT+15')).toThrow(
        'Use the region instead, such as Asia/Kolkata for +05:30.',
      );
    });
  });
});
