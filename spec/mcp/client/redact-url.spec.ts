import { redactUrl } from '../../../lib/mcp/client/redact-url';

describe('redactUrl', () => {
  it('leaves a URL without secrets unchanged', () => {
    expect(redactUrl(new URL('http://127.0.0.1:3001/mcp'))).toBe('http://127.0.0.1:3001/mcp');
  });

  it('drops user info and replaces every query value, once per key', () => {
    expect(redactUrl(new URL('https://user:pw@mcp.example/mcp?key=s3cret&a=1&a=2'))).toBe(
      'https://mcp.example/mcp?key=redacted&a=redacted',
    );
  });
});
