import type { IncomingMessage } from 'node:http';
import { SESSION_ERA_VERSIONS } from '../../../lib/mcp/wire/protocol-eras';
import { toRequestEra } from '../../../lib/mcp/wire/to-request-era';

/** A request as the era is told from it: only its headers are read. */
function requestWith(headers: IncomingMessage['headers']): IncomingMessage {
  return { headers } as IncomingMessage;
}

describe('toRequestEra', () => {
  it('gives the era of the revision the MCP-Protocol-Version header names', () => {
    for (const version of SESSION_ERA_VERSIONS)
      expect(toRequestEra(requestWith({ 'mcp-protocol-version': version }))).toBe('session');
  });

  it('reads the first of repeated headers', () => {
    expect(toRequestEra(requestWith({ 'mcp-protocol-version': ['2025-11-25', '2031-01-01'] }))).toBe(
      'session',
    );
  });

  it('gives the session era to a request naming no revision (an initialize, a 2025-03-26 client)', () => {
    expect(toRequestEra(requestWith({}))).toBe('session');
  });

  it('gives the session era to a revision it does not know, whose endpoint refuses it', () => {
    expect(toRequestEra(requestWith({ 'mcp-protocol-version': '1999-01-01' }))).toBe('session');
    expect(toRequestEra(requestWith({ 'mcp-protocol-version': '' }))).toBe('session');
  });
});
