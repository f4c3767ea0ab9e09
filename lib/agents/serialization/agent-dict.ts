import type { CapabilityPolicyDict } from '../../policy/capability-policy';
import type { AgentCardJson } from '../agent-card';

/** A built-in tool, restored by its stable id through a factory. */
export interface BuiltinToolDict {
  type: 'builtin';
  /** The stable id (`web_search`, `fetch_url`, `calculator`, `current_datetime`). */
  builtinId: string;
  /** The tool's name (must match what the factory builds). */
  name: string;
  /** The factory's JSON options (never secrets or callbacks). */
  options?: Record<string, unknown>;
}

/** A native tool: only its name; its implementation comes back through `overrides.tools`/`toolsets`. */
export interface NativeToolDict {
  type: 'native';
  /** The tool's name. */
  name: string;
}

/** A serialized tool entry. */
export type ToolDict = BuiltinToolDict | NativeToolDict;

/**
 * An MCP server's connection config (without headers or environment values, which may hold secrets) and
 * the names of the tools taken from it. Restore keeps these entries on `agent.mcpServers`; reconnecting
 * them is the MCP adapter's job.
 */
/** One saved definition pin of an MCP server's tool (plain data, no secrets). */
export interface McpServerPinDict {
  /** The tool's name on the server. */
  name: string;
  /** The local name the pin binds (absent in pins saved before pins were bound to local names). */
  localName?: string;
  /** sha256 (hex) of the pinned definition's canonical JSON. */
  sha256: string;
  /** The pinned definition (name, title, description, schemas, annotations). */
  definition: Record<string, unknown>;
}

export interface McpServerDict {
  /** `stdio`, `sse` or `http`. */
  transport?: string;
  /** Tools taken from this server. */
  tools?: string[];
  /**
   * Definition pins of the server's tools (`{ name, sha256, definition }`, as `MCPToolAdapter.exportPins()`
   * returns them): pass them back as the adapter's `pins` option so a restart does not re-trust changes.
   */
  pins?: McpServerPinDict[];
  /** Other connection fields (command, args, url, cwd, timeoutMs, session…). */
  [key: string]: unknown;
}

/** The serialized form of an Agent (`toDict()`; `toYAML()` is its YAML text). */
export interface AgentDict {
  /** The A2A card. */
  card: AgentCardJson;
  /** `runtime` or `http`. */
  transport: 'runtime' | 'http';
  /** `auto` or `fixed`. */
  skills: 'auto' | 'fixed';
  /** The first-party policy's rules (absent for a custom policy: pass it in overrides). */
  policy?: CapabilityPolicyDict;
  /**
   * The name of a custom policy that data cannot carry: restoring such an agent requires `overrides.policy`
   * (it never falls back to the allow-by-default policy).
   */
  customPolicy?: string;
  /** Built-in and native tools. */
  tools: ToolDict[];
  /** MCP servers and their tools. */
  mcpServers?: McpServerDict[];
}

/** The top-level fields an AgentDict may have. */
export const AGENT_DICT_FIELDS: readonly string[] = Object.freeze([
  'card',
  'transport',
  'skills',
  'policy',
  'customPolicy',
  'tools',
  'mcpServers',
]);
