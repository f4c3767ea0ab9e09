import { readTokenUsage } from '../../../lib/llm/providers/read-token-usage';

describe('readTokenUsage', () => {
  describe('reading', () => {
    it('reads the named input and output count fields', () => {
      expect(
        readTokenUsage({ prompt_tokens: 12, completion_tokens: 3 }, 'prompt_tokens', 'completion_tokens'),
      ).toEqual({ inputTokens: 12, outputTokens: 3 });
    });

    it('reads a missing or invalid count as 0', () => {
      expect(
        readTokenUsage({ input_tokens: -1, output_tokens: 'many' }, 'input_tokens', 'output_tokens'),
      ).toEqual({
        inputTokens: 0,
        outputTokens: 0,
      });
    });

    it('returns undefined when there is no usage object', () => {
      expect(readTokenUsage(undefined, 'input_tokens', 'output_tokens')).toBeUndefined();
      expect(readTokenUsage([1, 2], 'input_tokens', 'output_tokens')).toBeUndefined();
    });
  });
});
