import { ToolInputError } from '../../../lib/errors/tool-input-error';
import { readBraveApiKey } from '../../../lib/builtins/web-search/read-brave-api-key';

describe('readBraveApiKey', () => {
  const saved = process.env.BRAVE_SEARCH_API_KEY;
  afterEach(() => {
    if (saved === undefined) delete process.env.BRAVE_SEARCH_API_KEY;
    else process.env.BRAVE_SEARCH_API_KEY = saved;
  });

  describe('readBraveApiKey()', () => {
    it('returns the trimmed key when the variable is set', () => {
      process.env.BRAVE_SEARCH_API_KEY = '  BSAabc123_-XYZ \n';
      expect(readBraveApiKey()).toBe('BSAabc123_-XYZ');
    });

    it('reads the environment at every call, never a cached value', () => {
      process.env.BRAVE_SEARCH_API_KEY = 'first-key';
      expect(readBraveApiKey()).toBe('first-key');
      process.env.BRAVE_SEARCH_API_KEY = 'second-key';
      expect(readBraveApiKey()).toBe('second-key');
    });

    it.each([undefined, '', '   '])('names the variable when it is %p', (value) => {
      if (value === undefined) delete process.env.BRAVE_SEARCH_API_KEY;
      else process.env.BRAVE_SEARCH_API_KEY = value;
      expect(() => readBraveApiKey()).toThrow(ToolInputError);
      expect(() => readBraveApiKey()).toThrow(
        "web_search: engine 'brave' needs an API key in the environment variable BRAVE_SEARCH_API_KEY, which is not set. Set it, or choose engine 'wikipedia' or 'duckduckgo' explicitly (there is no automatic fallback).",
      );
    });

    it.each([
      ['an inner space', 'abc def'],
      ['a control character', 'abc\u0007def'],
      ['a non-ASCII character', 'abcé'],
      ['513 characters', 'k'.repeat(513)],
    ])('rejects a key with %s without echoing it', (_label, value) => {
      process.env.BRAVE_SEARCH_API_KEY = value;
      let caught: unknown;
      try {
        readBraveApiKey();
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ToolInputError);
      const message = (caught as Error).message;
      expect(message).toBe(
        'web_search: the environment variable BRAVE_SEARCH_API_KEY contains invalid characters (a Brave key is at most 512 printable ASCII characters without spaces). Copy the key again from the Brave Search API dashboard.',
      );
      expect(message).not.toContain(value);
    });

    it('accepts a key of exactly 512 printable characters', () => {
      process.env.BRAVE_SEARCH_API_KEY = '!~'.repeat(256);
      expect(readBraveApiKey()).toHaveLength(512);
    });
  });
});
