import { ToolDefinitionError } from '../../lib/errors/tool-definition-error';
import { parsePublicUrl } from '../../lib/server/parse-public-url';

function failureOf(value: unknown): ToolDefinitionError {
  try {
    parsePublicUrl(value);
  } catch (error) {
    expect(error).toBeInstanceOf(ToolDefinitionError);
    return error as ToolDefinitionError;
  }
  throw new Error(`parsePublicUrl(${JSON.stringify(value)}) did not throw`);
}

describe('parsePublicUrl', () => {
  it('returns undefined when not given, and the parsed URL for http(s) URLs with or without a path', () => {
    expect(parsePublicUrl(undefined)).toBeUndefined();
    expect(parsePublicUrl('https://agent.example.com')?.host).toBe('agent.example.com');
    expect(parsePublicUrl('http://lb.internal:9000/agents/crm')?.pathname).toBe('/agents/crm');
  });

  it('refuses a value that is not a string, or not a URL', () => {
    expect(failureOf(42).message).toBe(
      'publicUrl must be a URL string, got number. Give the base URL clients use, e.g. https://agent.example.com.',
    );
    expect(failureOf('agent.example.com').message).toBe(
      "publicUrl 'agent.example.com' is not a URL. Give the base URL clients use, e.g. https://agent.example.com.",
    );
  });

  it('refuses schemes other than http and https', () => {
    expect(failureOf('ws://agent.example.com').message).toBe(
      "publicUrl must be an http:// or https:// URL, got 'ws://agent.example.com/'. Give the base URL clients use, e.g. https://agent.example.com.",
    );
    expect(failureOf('ftp://agent.example.com').message).toContain('must be an http:// or https:// URL');
  });

  it('refuses credentials without showing the password', () => {
    const error = failureOf('https://admin:hunter2@agent.example.com');
    expect(error.message).toBe(
      "publicUrl must not carry credentials (user:password@), got 'https://agent.example.com/': it is advertised on the agent card.",
    );
    expect(error.message).not.toContain('hunter2');
    expect(failureOf('https://admin@agent.example.com').message).toContain('must not carry credentials');
  });

  it('refuses a query or a fragment, even an empty one, without showing the query', () => {
    for (const url of [
      'https://agent.example.com/?token=s3cret',
      'https://agent.example.com/#card',
      'https://agent.example.com/?',
      'https://agent.example.com#',
    ]) {
      const error = failureOf(url);
      expect(error.message).toBe(
        "publicUrl must not have a query or a fragment, got 'https://agent.example.com/?…'. Give the base URL clients use, e.g. https://agent.example.com.",
      );
      expect(error.message).not.toContain('s3cret');
    }
  });
});
