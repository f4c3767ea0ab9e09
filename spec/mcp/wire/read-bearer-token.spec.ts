import type { IncomingMessage } from 'node:http';
import { readBearerToken } from '../../../lib/mcp/wire/read-bearer-token';

const withAuthorization = (authorization: unknown): IncomingMessage =>
  ({ headers: authorization === undefined ? {} : { authorization } }) as unknown as IncomingMessage;

describe('readBearerToken', () => {
  it('reads the token of a Bearer header, whatever the scheme case and trailing space', () => {
    expect(readBearerToken(withAuthorization('Bearer abc.def'))).toBe('abc.def');
    expect(readBearerToken(withAuthorization('bearer  t0k3n  '))).toBe('t0k3n');
  });

  it('gives undefined for no header, another scheme, an empty or a spaced token', () => {
    expect(readBearerToken(withAuthorization(undefined))).toBeUndefined();
    expect(readBearerToken(withAuthorization('Basic dXNlcjpwYXNz'))).toBeUndefined();
    expect(readBearerToken(withAuthorization('Bearer '))).toBeUndefined();
    expect(readBearerToken(withAuthorization('Bearer two words'))).toBeUndefined();
    expect(readBearerToken(withAuthorization(['Bearer a', 'Bearer b']))).toBeUndefined();
  });
});
