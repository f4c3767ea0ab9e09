import {
  CAPABILITY_PATTERN,
  readCapabilityList,
  toReusableCapabilities,
  readCapabilityName,
} from '../../lib/capabilities/capability-name';

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

    it('reads any iterable once, in order: a Set, a generator', () => {
      expect(readCapabilityList(new Set(['b', 'A', 'a']))).toEqual({ ok: true, capabilities: ['b', 'a'] });
      let reads = 0;
      const names = (function* () {
        reads += 1;
        yield 'one';
        yield 'two';
      })();
      expect(readCapabilityList(names)).toEqual({ ok: true, capabilities: ['one', 'two'] });
      expect(reads).toBe(1);
    });

    it('keeps an element that is not a string an error, a Set included', () => {
      expect(readCapabilityList(new Set([['a']]))).toMatchObject({
        ok: false,
        problem: expect.stringContaining('capability a nested list is not a capability name'),
      });
      expect(readCapabilityList([new Set(['a'])])).toMatchObject({
        ok: false,
        problem: expect.stringContaining('capability a Set is not a capability name'),
      });
    });

    it('with arrayOnly, refuses any other iterable, saying to spread it', () => {
      expect(readCapabilityList(new Set(['a']), { arrayOnly: true })).toEqual({
        ok: false,
        problem:
          "capabilities must be an array of strings such as ['records.write'], not a Set (spread it into an array: [...capabilities])",
      });
      expect(readCapabilityList(['a'], { arrayOnly: true })).toEqual({ ok: true, capabilities: ['a'] });
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

describe('toReusableCapabilities', () => {
  it('copies a one-shot iterator into an array, so it can be read again', () => {
    const names = (function* () {
      yield 'a';
      yield 'b';
    })();
    const reusable = toReusableCapabilities(names);
    expect(reusable).toEqual(['a', 'b']);
    expect(readCapabilityList(reusable)).toEqual(readCapabilityList(reusable));
  });

  it('returns arrays, Sets, strings and anything else unchanged', () => {
    const list = ['a'];
    const set = new Set(['a']);
    const text = new String('abc');
    expect(toReusableCapabilities(list)).toBe(list);
    expect(toReusableCapabilities(set)).toBe(set);
    expect(toReusableCapabilities('abc')).toBe('abc');
    expect(toReusableCapabilities(text)).toBe(text);
    expect(toReusableCapabilities(undefined)).toBeUndefined();
  });
});
