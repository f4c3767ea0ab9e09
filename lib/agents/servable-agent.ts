import type { RunContext } from '../runtime/run-context';
import type { BaseTool } from '../tools/base-tool';

/** What the server reads from an agent's card: its identity and its A2A JSON form. */
export interface ServableAgentCard {
  /** The agent's name (the MCP server name). */
  readonly name: string;
  /** The agent's version (the MCP server version; `0.0.0` when absent). */
  readonly version?: string;
  /** Where the agent listens (`http://127.0.0.1:8080`); the HTTP server binds to it unless told otherwise. */
  readonly url?: string;
  /** What the agent does (sent to MCP clients as the server's instructions). */
  readonly description?: string;
  /** The A2A JSON form (camelCase, skills included) served at `/.well-known/agent.json`. */
  toJSON?(): unknown;
}

/**
 * The part of an `Agent` that serving needs: a card, the tools, and the one guarded call path (validation,
 * policy, approval, budget, cancellation, telemetry). Structural, so the server never depends on the
 * agent's internals.
 */
export interface ServableAgent {
  /** The agent's card. */
  readonly card: ServableAgentCard;
  /** The agent's tools by name (read live on every `tools/list`). */
  readonly tools: ReadonlyMap<string, BaseTool>;
  /** Runs one tool through the agent's checks, in the given run context. */
  callToolInContext(name: string, context: RunContext, args?: Record<string, unknown>): Promise<unknown>;
}

/** Returns whether `value` looks like a {@link ServableAgent} (a card, a tools map and `callToolInContext`). */
export function isServableAgent(value: unknown): value is ServableAgent {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<ServableAgent>;
  return (
    typeof candidate.callToolInContext === 'function' &&
    typeof candidate.tools === 'object' &&
    candidate.tools !== null &&
    typeof candidate.tools.get === 'function' &&
    typeof candidate.tools.values === 'function' &&
    typeof candidate.card === 'object' &&
    candidate.card !== null &&
    typeof candidate.card.name === 'string'
  );
}
