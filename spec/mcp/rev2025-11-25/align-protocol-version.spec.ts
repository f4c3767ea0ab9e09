import type { IncomingMessage } from 'node:http';
import {
  alignProtocolVersion,
  negotiateProtocolVersion,
} from '../../../lib/mcp/rev2025-11-25/align-protocol-version';

function requestWith(version: string | undefined): IncomingMessage {
  const rawHeaders = ['Content-Type', 'application/json'];
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (version !== undefined) {
    rawHeaders.push('MCP-Protocol-Version', version);
    headers['mcp-protocol-version'] = version;
  }
  return { headers, rawHeaders } as unknown as IncomingMessage;
}

const initialize = (protocolVersion: string) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'c', version: '1' } },
});

describe('negotiateProtocolVersion', () => {
  it("answers the client's version when supported, else the latest", () => {
    expect(negotiateProtocolVersion(initialize('2025-06-18'))).toBe('2025-06-18');
    expect(negotiateProtocolVersion([initialize('2025-11-25')])).toBe('2025-11-25');
    expect(negotiateProtocolVersion(initialize('1999-01-01'))).toBe('2025-11-25');
  });
});

describe('alignProtocolVersion', () => {
  it('relabels an older supported version of a 2025-11-25 session, in headers and raw headers', () => {
    const request = requestWith('2025-03-26');
    alignProtocolVersion(request, '2025-11-25');
    expect(request.headers['mcp-protocol-version']).toBe('2025-11-25');
    expect(request.rawHeaders).toEqual([
      'Content-Type',
      'application/json',
      'MCP-Protocol-Version',
      '2025-11-25',
    ]);
  });

  it.each([
    ['a session negotiated before resumable streams', '2025-03-26', '2025-06-18'],
    ['an unsupported version (the SDK answers it with 400)', '1999-01-01', '2025-11-25'],
    ['the negotiated version itself', '2025-11-25', '2025-11-25'],
  ])('leaves %s unchanged', (_what, header, negotiated) => {
    const request = requestWith(header);
    alignProtocolVersion(request, negotiated);
    expect(request.headers['mcp-protocol-version']).toBe(header);
    expect(request.rawHeaders[3]).toBe(header);
  });

  it('leaves a request without the header, or a session without a version, alone', () => {
    const bare = requestWith(undefined);
    alignProtocolVersion(bare, '2025-11-25');
    expect(bare.headers['mcp-protocol-version']).toBeUndefined();
    const request = requestWith('2025-03-26');
    alignProtocolVersion(request, undefined);
    expect(request.headers['mcp-protocol-version']).toBe('2025-03-26');
  });
});
