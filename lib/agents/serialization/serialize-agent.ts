import { CapabilityPolicy } from '../../policy/capability-policy';
import type { Policy } from '../../policy/policy';
import type { BaseTool } from '../../tools/base-tool';
import type { AgentCard } from '../agent-card';
import type { AgentDict, McpServerDict, McpServerPinDict, ToolDict } from './agent-dict';

/** What an agent hands to {@link serializeAgent}. */
export interface AgentSnapshot {
  readonly card: AgentCard;
  readonly transport: 'runtime' | 'http';
  readonly skills: 'auto' | 'fixed';
  readonly policy: Policy;
  readonly tools: readonly BaseTool[];
  readonly mcpServers: readonly McpServerDict[];
}

// Option keys that may carry credentials are never written, whatever their value.
const SECRET_KEY =
  /(api[-_]?key|token|secret|password|passwd|authorization|credential|cookie|headers|^env$)/i;

/**
 * Turns an agent into plain data: the card, built-in tools by stable id (with their JSON options),
 * native tools by name, MCP tools grouped by server config, and the first-party policy's rules. Never
 * secrets, never callbacks: custom policies, approval handlers and native implementations are passed
 * again on restore.
 */
export function serializeAgent(snapshot: AgentSnapshot): AgentDict {
  const tools: ToolDict[] = [];
  // Entries carried over from options or a restore are cleaned like the adapter's own: no secrets.
  const servers: McpServerDict[] = snapshot.mcpServers.map((server) => cleanServer(server));
  for (const tool of snapshot.tools) {
    const metadata = readMetadata(tool);
    const builtin = metadata?.builtin as { id?: unknown; options?: unknown } | undefined;
    const mcp = metadata?.mcp;
    if (builtin && typeof builtin.id === 'string') {
      const options = toJsonOptions(builtin.options);
      tools.push({
        type: 'builtin',
        builtinId: builtin.id,
        name: tool.name,
        ...(options ? { options } : {}),
      });
    } else if (mcp && typeof mcp === 'object') {
      addMcpTool(servers, mcp as Record<string, unknown>, tool.name, metadata?.mcpPin);
    } else {
      tools.push({ type: 'native', name: tool.name });
    }
  }
  const dict: AgentDict = {
    card: snapshot.card.toJSON(),
    transport: snapshot.transport,
    skills: snapshot.skills,
    tools,
  };
  // Only the exact first-party class is data; a subclass may carry behaviour that data cannot restore.
  if (snapshot.policy instanceof CapabilityPolicy && snapshot.policy.constructor === CapabilityPolicy)
    dict.policy = snapshot.policy.toDict();
  else dict.customPolicy = describePolicy(snapshot.policy);
  if (servers.length) dict.mcpServers = servers;
  return dict;
}

function readMetadata(tool: BaseTool): Record<string, unknown> | undefined {
  const metadata = (tool as { metadata?: unknown }).metadata;
  return typeof metadata === 'object' && metadata !== null
    ? (metadata as Record<string, unknown>)
    : undefined;
}

function addMcpTool(
  servers: McpServerDict[],
  config: Record<string, unknown>,
  toolName: string,
  pin: unknown,
): void {
  const clean = toJsonOptions(config) ?? {};
  delete clean.tools;
  const key = JSON.stringify(clean);
  let server = servers.find((entry) => {
    const { tools: _tools, pins: _pins, ...rest } = entry;
    return JSON.stringify(rest) === key;
  });
  if (!server) {
    server = { ...clean, tools: [] };
    servers.push(server);
  }
  const names = (server.tools ??= []);
  if (!names.includes(toolName)) names.push(toolName);
  addMcpPin(server, pin);
}

/** Keeps the MCP adapter's definition pin of a tool (`metadata.mcpPin`) so a restart does not re-trust. */
function addMcpPin(server: McpServerDict, pin: unknown): void {
  const name = (pin as { name?: unknown } | null)?.name;
  if (typeof pin !== 'object' || pin === null || typeof name !== 'string') return;
  const pins = (server.pins ??= []);
  const copy = structuredClone(pin) as McpServerPinDict;
  const index = pins.findIndex((entry) => entry.name === name);
  if (index === -1) pins.push(copy);
  else pins[index] = copy;
}

/** Keeps JSON data only: functions, symbols, class instances other than plain objects, and secret-named keys are dropped. */
function toJsonOptions(value: unknown): Record<string, unknown> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const result = toJsonValue(value);
  return result && typeof result === 'object' && Object.keys(result).length
    ? (result as Record<string, unknown>)
    : undefined;
}

function toJsonValue(value: unknown, depth = 0): unknown {
  if (depth > 20) return undefined;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (Array.isArray(value))
    return value.map((item) => toJsonValue(item, depth + 1)).filter((item) => item !== undefined);
  if (typeof value !== 'object') return undefined;
  const prototype = Object.getPrototypeOf(value);
  // Plain objects of any realm (structuredClone in some hosts builds them on another Object.prototype).
  if (prototype !== null && Object.getPrototypeOf(prototype) !== null) return undefined;
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (SECRET_KEY.test(key) || key === '__proto__') continue;
    const json = toJsonValue(item, depth + 1);
    if (json !== undefined) result[key] = json;
  }
  return result;
}

function cleanServer(server: McpServerDict): McpServerDict {
  // Pins are the server's own tool definitions (no secrets); their schemas keep keys such as `token`.
  const { pins, ...rest } = server;
  const clean = (toJsonOptions(rest) ?? {}) as Record<string, unknown>;
  if (Array.isArray(pins)) clean.pins = structuredClone(pins);
  if (typeof clean.url === 'string') clean.url = redactUrl(clean.url);
  return clean as unknown as McpServerDict;
}

/** Drops credentials and query values from a URL (they may carry tokens). */
function redactUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return '[invalid url]';
  }
  url.username = '';
  url.password = '';
  for (const key of [...url.searchParams.keys()]) url.searchParams.set(key, 'redacted');
  return url.href;
}

function describePolicy(policy: unknown): string {
  const named = (policy as { name?: unknown; policyName?: unknown } | null) ?? {};
  if (typeof named.name === 'string' && named.name) return named.name;
  const constructorName = (policy as { constructor?: { name?: string } } | null)?.constructor?.name;
  return constructorName && constructorName !== 'Object' ? constructorName : 'custom policy';
}
