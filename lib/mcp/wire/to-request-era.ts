import type { IncomingMessage } from 'node:http';
import { toProtocolEra } from './protocol-eras';
import type { ProtocolEra } from './protocol-eras';

/**
 * The protocol era of a request to `/mcp`, told from its `MCP-Protocol-Version` header alone (so before its
 * body is read): the era of the revision the header names. A request naming none is of the session era (an
 * `initialize` carries no header, nor does any request of a 2025-03-26 client), and so is one naming a
 * revision this package does not know: the session era's endpoint refuses it with 400, listing the
 * revisions it supports.
 */
export function toRequestEra(request: IncomingMessage): ProtocolEra {
  const header = request.headers['mcp-protocol-version'];
  const version = Array.isArray(header) ? header[0] : header;
  return (version !== undefined && toProtocolEra(version)) || 'session';
}
