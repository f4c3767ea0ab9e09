import { ToolInputError } from '../../../lib/errors/tool-input-error';
import { ToolValidationError } from '../../../lib/errors/tool-validation-error';
import type { MCPPromptInfo } from '../../../lib/mcp/client';
import { validateMcpPromptArgs } from '../../../lib/mcp/client/validate-mcp-prompt-args';

const review: MCPPromptInfo = {
  name: 'review',
  description: 'Reviews code',
  arguments: [
    { name: 'code', description: 'The code', required: true },
    { name: 'language', description: '', required: false },
  ],
};

describe('validateMcpPromptArgs', () => {
  it('returns a new object with the given strings; null and undefined mean absent', () => {
    const given = { code: 'x = 1', language: null };
    const checked = validateMcpPromptArgs(review, given, 'docs');
    expect(checked).toEqual({ code: 'x = 1' });
    expect(checked).not.toBe(given);
    expect(validateMcpPromptArgs({ ...review, arguments: [] }, undefined, 'docs')).toEqual({});
  });

  it('lists unknown, non-string and missing arguments in one ToolValidationError', () => {
    let error: unknown;
    try {
      validateMcpPromptArgs(review, { language: true, extra: 'x' }, 'docs');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ToolValidationError);
    expect((error as ToolValidationError).message).toBe(
      'Invalid arguments for prompt "review" on MCP server \'docs\': language: must be a string (MCP prompt ' +
        'arguments are strings); got boolean; extra: is not an argument of this prompt (it takes: code, language); ' +
        'code: is required',
    );
  });

  it('never coerces to a string', () => {
    expect(() => validateMcpPromptArgs(review, { code: 42 }, 'docs')).toThrow('code: must be a string');
  });

  it('keeps an argument named __proto__ as data, never as the prototype', () => {
    const prompt: MCPPromptInfo = {
      ...review,
      arguments: [{ name: '__proto__', description: '', required: true }],
    };
    const checked = validateMcpPromptArgs(prompt, JSON.parse('{"__proto__": "x"}'), 'docs');
    expect(Object.getPrototypeOf(checked)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(checked, '__proto__')?.value).toBe('x');
    expect(JSON.stringify(checked)).toBe('{"__proto__":"x"}');
  });

  it('refuses arguments that are not an object with a ToolInputError', () => {
    expect(() => validateMcpPromptArgs(review, ['x'], 'docs')).toThrow(ToolInputError);
    expect(() => validateMcpPromptArgs(review, 'x', 'docs')).toThrow(
      "The arguments of prompt \"review\" on MCP server 'docs' must be an object of strings, e.g. { code: '…' }.",
    );
  });
});
