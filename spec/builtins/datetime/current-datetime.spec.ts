import { ToolDefinitionError } from '../../../lib/errors/tool-definition-error';
import { ToolInputError } from '../../../lib/errors/tool-input-error';
import { ToolRuntimeError } from '../../../lib/errors/tool-runtime-error';
import { ToolValidationError } from '../../../lib/errors/tool-validation-error';
import { currentDatetime } from '../../../lib/builtins/datetime/current-datetime';
import type { CurrentDatetimeResult } from '../../../lib/builtins/datetime/build-current-datetime';
import { NativeTool } from '../../../lib/tools/native-tool';
import { validateToolOutput } from '../../../lib/tools/validation/validate-tool-output';

/** A tool whose clock is fixed at one instant. */
function toolAt(instant: string): NativeTool {
  return currentDatetime({ clock: () => new Date(instant) });
}

async function callAt(instant: string, timezone?: string): Promise<CurrentDatetimeResult> {
  return (await toolAt(instant).call(timezone === undefined ? {} : { timezone })) as CurrentDatetimeResult;
}

async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new ToolInputError('expected a rejection');
}

describe('currentDatetime', () => {
  describe('currentDatetime()', () => {
    it('returns a fresh NativeTool named current_datetime on every call', () => {
      const first = currentDatetime();
      expect(first).toBeInstanceOf(NativeTool);
      expect(first).not.toBe(currentDatetime());
      expect(first.name).toBe('current_datetime');
    });

    it('has no capability, the builtin/datetime/read-only tags, the seed example and its builtin id', () => {
      const tool = currentDatetime();
      expect(tool.capabilities).toEqual([]);
      expect(tool.tags).toEqual(['builtin', 'datetime', 'read-only']);
      expect(tool.examples).toEqual([{ timezone: 'Europe/Zurich' }]);
      expect(tool.metadata).toEqual({ builtin: { id: 'current_datetime', options: {} } });
    });

    it('advertises an optional timezone of at most 100 characters, UTC by default', () => {
      expect(currentDatetime().inputSchema).toMatchObject({
        type: 'object',
        additionalProperties: false,
        properties: { timezone: { type: 'string', minLength: 1, maxLength: 100, default: 'UTC' } },
      });
      expect(currentDatetime().inputSchema.required ?? []).toEqual([]);
    });

    it('advertises a closed output schema with all seven fields required', () => {
      expect(currentDatetime().outputSchema).toMatchObject({
        type: 'object',
        additionalProperties: false,
        required: ['timezone', 'iso8601', 'date', 'time', 'weekday', 'utc_offset', 'unix_timestamp'],
        properties: {
          iso8601: { format: 'date-time' },
          date: { format: 'date' },
          unix_timestamp: { type: 'integer' },
        },
      });
    });

    it('rejects a clock that is not a function', () => {
      const build = () => currentDatetime({ clock: 'now' as unknown as () => number });
      expect(build).toThrow(ToolDefinitionError);
      expect(build).toThrow(
        "currentDatetime(): the 'clock' option must be a function returning a Date or milliseconds, got string.",
      );
    });
  });

  describe('call()', () => {
    it('returns the seven fields in UTC by default', async () => {
      await expect(callAt('2026-03-08T06:59:59Z')).resolves.toEqual({
        timezone: 'UTC',
        iso8601: '2026-03-08T06:59:59+00:00',
        date: '2026-03-08',
        time: '06:59:59',
        weekday: 'Sunday',
        utc_offset: '+00:00',
        unix_timestamp: 1772953199,
      });
    });

    it('matches the reference example for Europe/Zurich', async () => {
      const result = await callAt('2025-01-01T12:00:00Z', 'Europe/Zurich');
      expect(result).toMatchObject({
        iso8601: '2025-01-01T13:00:00+01:00',
        weekday: 'Wednesday',
        utc_offset: '+01:00',
      });
    });

    // Expected values printed by CPython 3.11 zoneinfo for the same instants.
    it.each([
      [
        'America/New_York',
        '2026-03-08T06:59:59Z',
        '2026-03-08T01:59:59-05:00',
        'Sunday',
        '-05:00',
        1772953199,
      ],
      [
        'America/New_York',
        '2026-03-08T07:00:00Z',
        '2026-03-08T03:00:00-04:00',
        'Sunday',
        '-04:00',
        1772953200,
      ],
      [
        'America/New_York',
        '2026-11-01T05:59:59Z',
        '2026-11-01T01:59:59-04:00',
        'Sunday',
        '-04:00',
        1793512799,
      ],
      [
        'America/New_York',
        '2026-11-01T06:00:00Z',
        '2026-11-01T01:00:00-05:00',
        'Sunday',
        '-05:00',
        1793512800,
      ],
      [
        'America/New_York',
        '2026-11-01T06:30:00Z',
        '2026-11-01T01:30:00-05:00',
        'Sunday',
        '-05:00',
        1793514600,
      ],
      [
        'Australia/Sydney',
        '2026-04-04T15:59:59Z',
        '2026-04-05T02:59:59+11:00',
        'Sunday',
        '+11:00',
        1775318399,
      ],
      [
        'Australia/Sydney',
        '2026-04-04T16:00:00Z',
        '2026-04-05T02:00:00+10:00',
        'Sunday',
        '+10:00',
        1775318400,
      ],
      ['Europe/London', '2026-03-29T01:00:00Z', '2026-03-29T02:00:00+01:00', 'Sunday', '+01:00', 1774746000],
      ['Asia/Kolkata', '2026-03-08T07:00:00Z', '2026-03-08T12:30:00+05:30', 'Sunday', '+05:30', 1772953200],
      ['Asia/Kathmandu', '2026-03-08T07:00:00Z', '2026-03-08T12:45:00+05:45', 'Sunday', '+05:45', 1772953200],
      [
        'America/St_Johns',
        '2026-01-15T12:00:00Z',
        '2026-01-15T08:30:00-03:30',
        'Thursday',
        '-03:30',
        1768478400,
      ],
      [
        'Pacific/Chatham',
        '2026-01-15T12:00:00Z',
        '2026-01-16T01:45:00+13:45',
        'Friday',
        '+13:45',
        1768478400,
      ],
      [
        'Australia/Lord_Howe',
        '2026-01-15T12:00:00Z',
        '2026-01-15T23:00:00+11:00',
        'Thursday',
        '+11:00',
        1768478400,
      ],
      [
        'Australia/Lord_Howe',
        '2026-07-15T12:00:00Z',
        '2026-07-15T22:30:00+10:30',
        'Wednesday',
        '+10:30',
        1784116800,
      ],
      [
        'Pacific/Kiritimati',
        '2026-12-31T11:00:00Z',
        '2027-01-01T01:00:00+14:00',
        'Friday',
        '+14:00',
        1798714800,
      ],
      ['Etc/GMT+2', '2026-03-08T07:00:00Z', '2026-03-08T05:00:00-02:00', 'Sunday', '-02:00', 1772953200],
      ['EST5EDT', '2026-07-01T12:00:00Z', '2026-07-01T08:00:00-04:00', 'Wednesday', '-04:00', 1782907200],
      [
        'Africa/Monrovia',
        '1970-06-01T12:00:00Z',
        '1970-06-01T11:15:30-00:44:30',
        'Monday',
        '-00:45',
        13089600,
      ],
    ])('in %s at %s returns %s', async (timezone, instant, iso8601, weekday, utcOffset, unix) => {
      const result = await callAt(instant, timezone);
      expect(result).toEqual({
        timezone,
        iso8601,
        date: iso8601.slice(0, 10),
        time: iso8601.slice(11, 19),
        weekday,
        utc_offset: utcOffset,
        unix_timestamp: unix,
      });
    });

    it('truncates to whole seconds', async () => {
      const result = await callAt('2026-03-08T06:59:59.999Z', 'America/New_York');
      expect(result).toMatchObject({ time: '01:59:59', unix_timestamp: 1772953199, utc_offset: '-05:00' });
    });

    it('shows midnight as 00, never 24', async () => {
      const result = await callAt('2026-03-09T04:00:00Z', 'America/New_York');
      expect(result).toMatchObject({ iso8601: '2026-03-09T00:00:00-04:00', weekday: 'Monday' });
    });

    it('accepts a clock that returns milliseconds', async () => {
      const tool = currentDatetime({ clock: () => Date.UTC(2026, 0, 1) });
      await expect(tool.call({ timezone: 'Asia/Tokyo' })).resolves.toMatchObject({
        iso8601: '2026-01-01T09:00:00+09:00',
      });
    });

    it('reads the clock on every call', async () => {
      let now = Date.UTC(2026, 0, 1);
      const tool = currentDatetime({ clock: () => now });
      const first = (await tool.call({})) as CurrentDatetimeResult;
      now += 61_000;
      const second = (await tool.call({})) as CurrentDatetimeResult;
      expect(second.unix_timestamp - first.unix_timestamp).toBe(61);
    });

    it('uses the real clock by default', async () => {
      const before = Math.floor(Date.now() / 1000);
      const result = (await currentDatetime().call({})) as CurrentDatetimeResult;
      expect(result.unix_timestamp).toBeGreaterThanOrEqual(before);
      expect(result.unix_timestamp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    });

    it('trims the name, treats null as the default, and echoes IANA aliases as requested', async () => {
      await expect(callAt('2026-01-01T00:00:00Z', '  Asia/Kolkata ')).resolves.toMatchObject({
        timezone: 'Asia/Kolkata',
      });
      const tool = toolAt('2026-01-01T00:00:00Z');
      await expect(tool.call({ timezone: null })).resolves.toMatchObject({
        timezone: 'UTC',
        utc_offset: '+00:00',
      });
      for (const alias of ['Etc/UTC', 'GMT', 'Zulu', 'GMT+0', 'utc']) {
        await expect(tool.call({ timezone: alias })).resolves.toMatchObject({
          timezone: alias,
          utc_offset: '+00:00',
        });
      }
      await expect(tool.call({ timezone: 'Asia/Calcutta' })).resolves.toMatchObject({ utc_offset: '+05:30' });
      await expect(tool.call({ timezone: 'US/Eastern' })).resolves.toMatchObject({ utc_offset: '-05:00' });
    });

    it('returns results that match its own output schema', async () => {
      const tool = toolAt('2026-11-01T06:00:00Z');
      for (const timezone of ['UTC', 'America/New_York', 'Asia/Kathmandu', 'Pacific/Chatham']) {
        const result = await tool.call({ timezone });
        expect(validateToolOutput(result, tool.outputSchema!, 'current_datetime')).toEqual(result);
      }
    });

    it.each([
      ['Mars/Olympus_Mons', 'unknown or unavailable IANA timezone: "Mars/Olympus_Mons"'],
      ['Europe/../Paris', 'unknown or unavailable IANA timezone: "Europe/../Paris"'],
      ['localtime', 'unknown or unavailable IANA timezone: "localtime"'],
      ['Factory', 'unknown or unavailable IANA timezone: "Factory"'],
      ['America/New York', 'IANA names use only letters, digits and / _ + -'],
      ['Europe/Zürich', 'IANA names use only letters, digits and / _ + -'],
    ])('rejects the unknown zone %p', async (timezone, message) => {
      const error = await rejectionOf(toolAt('2026-01-01T00:00:00Z').call({ timezone }));
      expect(error).toBeInstanceOf(ToolInputError);
      expect(error.message).toMatch(/^current_datetime: unknown or unavailable IANA timezone: /);
      expect(error.message).toContain(message);
    });

    it.each([
      ['+02:00', 'Etc/GMT-2'],
      ['-0530', 'Asia/Kolkata'],
      ['UTC+1', 'Etc/GMT-1'],
      ['GMT-3', 'Etc/GMT+3'],
      ['utc +05:45', 'region'],
      ['Z+2', 'Etc/GMT-2'],
      ['UTC+0', "Use 'UTC'."],
      ['\u221201:00', 'Etc/GMT+1'],
    ])('rejects the offset-style name %p with a suggestion', async (timezone, suggestion) => {
      const error = await rejectionOf(toolAt('2026-01-01T00:00:00Z').call({ timezone }));
      expect(error).toBeInstanceOf(ToolInputError);
      expect(error.message).toContain(
        `current_datetime: '${timezone}' is a UTC offset, not an IANA timezone name.`,
      );
      expect(error.message).toContain(suggestion);
    });

    it('rejects empty, blank and oversized names', async () => {
      const tool = toolAt('2026-01-01T00:00:00Z');
      const blank = await rejectionOf(tool.call({ timezone: '   ' }));
      expect(blank).toBeInstanceOf(ToolInputError);
      expect(blank.message).toBe(
        "current_datetime: timezone must not be empty; pass an IANA name such as 'UTC'.",
      );
      for (const timezone of ['', 'A'.repeat(101), 42]) {
        await expect(tool.call({ timezone })).rejects.toThrow(ToolValidationError);
      }
      const padded = await rejectionOf(tool.call({ timezone: ` ${'A/'.repeat(48)}AB ` }));
      expect(padded.message).toContain('unknown or unavailable IANA timezone');
    });

    it('never falls back to the host time zone', async () => {
      const previous = process.env.TZ;
      process.env.TZ = 'Asia/Tokyo';
      try {
        const tool = toolAt('2026-01-01T00:00:00Z');
        await expect(tool.call({})).resolves.toMatchObject({ iso8601: '2026-01-01T00:00:00+00:00' });
        await expect(tool.call({ timezone: 'Nowhere/Land' })).rejects.toThrow(ToolInputError);
      } finally {
        if (previous === undefined) delete process.env.TZ;
        else process.env.TZ = previous;
      }
    });

    it('rejects a clock that returns an invalid time with a ToolRuntimeError', async () => {
      const invalid = currentDatetime({ clock: () => new Date('not a date') });
      const error = await rejectionOf(invalid.call({}));
      expect(error).toBeInstanceOf(ToolRuntimeError);
      expect(error.message).toBe(
        'current_datetime: the clock returned an invalid Date; a clock must return a valid Date or milliseconds since the epoch.',
      );
      const outOfRange = currentDatetime({ clock: () => Date.UTC(10000, 0, 1) });
      await expect(outOfRange.call({})).rejects.toThrow('outside the years 1–9999');
    });
  });
});
