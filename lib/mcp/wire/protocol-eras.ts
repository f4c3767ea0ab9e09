import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';

/**
 * The eras of the MCP protocol: `session` for the revisions that open a session with `initialize` and carry
 * it in `Mcp-Session-Id` (2024-11-05 up to 2025-11-25). A revision without sessions is a second era; every
 * version check of the package goes through this file, so adding a revision starts here.
 */
export type ProtocolEra = 'session';

/** The revisions of the session era that this package serves and speaks, oldest first (the SDK v1's list). */
export const SESSION_ERA_VERSIONS: readonly string[] = Object.freeze([...SUPPORTED_PROTOCOL_VERSIONS].sort());

/** The newest session-era revision: what an `initialize` naming no supported revision is answered with. */
export const LATEST_SESSION_ERA_VERSION: string = LATEST_PROTOCOL_VERSION;

/** The first revision with resumable POST streams (SEP-1699: priming events, `closeSSEStream`). */
export const RESUMABLE_STREAMS_SINCE = '2025-11-25';

/** The era a protocol revision belongs to, or undefined for a revision this package does not know. */
export function toProtocolEra(version: string): ProtocolEra | undefined {
  return SUPPORTED_PROTOCOL_VERSIONS.includes(version) ? 'session' : undefined;
}

/** Whether a protocol revision is one of the session era's (what `MCP-Protocol-Version` may name today). */
export function isSessionEraVersion(version: unknown): version is string {
  return typeof version === 'string' && toProtocolEra(version) === 'session';
}

/** Whether a session negotiated at this revision has resumable POST streams. */
export function hasResumableStreams(version: string): boolean {
  return isSessionEraVersion(version) && version >= RESUMABLE_STREAMS_SINCE;
}
