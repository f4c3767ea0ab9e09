import {
  CAPABILITY_PATTERN,
  readCapabilityList,
  readCapabilityName,
} from '../../lib/runtime/capability-name';

describe('readCapabilityName', () => {
  describe('readCapabilityName()', () => {
    it('lower-cases ASCII names and checks them against CAPABILITY_PATTERN', () => {
      expect(readCapabilityName('Network.Read')).toEqual({ ok: true, name: 'network.read' });
      expect(readCapabilityName('mcp.my-server_2')).toEqual({ ok: true, name: 'mcp.my-server_2' });
      expect(CAPABILITY_PATTERN.test('network.read')).toBe(true);
      expect(CAPABILITY_PATTERN.test('Network.Read')).toBe(false);
    });

    it('refuses letters that only lower-case to ASCII (the Kelvin sign becomes k)', () => {
      expect('\u212a'.toLowerCase()).toBe('k');
      expect(readCapabilityName('\u212aeys.read')).toMatchObject({
        ok: false,
        reason: 'it contains the non-ASCII character U+212A, which can look like an ASCII one',
      });
    });

    it('explains values that are not strings', () => {
      expect(readCapabilityName(null)).toMatchObject({
        ok: false,
        problem: expect.stringContaining('null is not'),
      });
      expect(readCapabilityName({})).toMatchObject({
        ok: false,
        problem: expect.stringContaining('an object'),
      });
      expect(readCapabilityName([])).toMatchObject({
        ok: false,
        problem: expect.stringContaining('a nested list'),
      });
    });
  });
});

describe('readCapabilityList', () => {
  describe('readCapabilityList()', () => {
    it('returns a frozen, de-duplicated list; null and undefined mean none', () => {
      const read = readCapabilityList(['B.x', 'b.x', '', 'a']);
      expect(read).toEqual({ ok: true, capabilities: ['b.x', 'a'] });
      expect(read.ok && Object.isFrozen(read.capabilities)).toBe(true);
      expect(readCapabilityList(null)).toEqual({ ok: true, capabilities: [] });
      expect(readCapabilityList(undefined)).toEqual({ ok: true, capabilities: [] });
    });

    it('refuses a bare string with the list to write instead', () => {
      expect(readCapabilityList('records.write')).toEqual({
        ok: false,
        problem:
          "capabilities must be a list, not the bare string 'records.write' (it would be read letter by letter); pass capabilities: ['records.write']",
      });
    });
  });
});
