import { ToolInputError } from '../../errors/tool-input-error';
import { assertKnownOptions, defineKnownOptions } from '../../runtime/assert-known-options';
import type { ApprovalHandler } from '../../policy/approval-handler';
import { CapabilityPolicy } from '../../policy/capability-policy';
import type { Policy } from '../../policy/policy';
import type { BaseTool } from '../../tools/base-tool';
import { scanTools } from '../../tools/registry/scan-tools';
import { AgentCard } from '../agent-card';
import type { AgentOptions, AgentTelemetryOptions } from '../agent-options';
import type { ElicitationHandler, SamplingHandler } from '../tool-interaction-handlers';
import { DEFAULT_BUILTIN_TOOL_FACTORIES } from '../builtin-tool-factories';
import type { BuiltinToolFactory } from '../builtin-tool-factories';
import { AGENT_DICT_FIELDS } from './agent-dict';
import type { McpServerDict } from './agent-dict';

/** What restoring needs besides the data: everything executable. */
export interface AgentRestoreOverrides {
  /** A policy to use instead of the serialized one (always wins). */
  policy?: Policy;
  /** The approval handler. */
  approvalHandler?: ApprovalHandler;
  /** Answers tools' `context.elicit()` questions in-process. */
  elicitationHandler?: ElicitationHandler;
  /** Answers tools' `context.sample()` requests in-process. */
  samplingHandler?: SamplingHandler;
  /** Native tools named in the data. */
  tools?: readonly BaseTool[];
  /** Toolset instances whose `@Tool` methods provide native tools named in the data. */
  toolsets?: readonly object[];
  /** Built-in factories by stable id, merged over the defaults (a seam for tests and new built-ins). */
  builtinFactories?: Readonly<Record<string, BuiltinToolFactory>>;
  /** Telemetry options of the restored agent. */
  telemetry?: AgentTelemetryOptions;
}

/** The options of the restore overrides, and advice for the names people pass instead. */
const AGENT_RESTORE_OVERRIDES = defineKnownOptions<AgentRestoreOverrides>(
  'Agent.fromDict()/fromYAML()',
  {
    policy: true,
    approvalHandler: true,
    elicitationHandler: true,
    samplingHandler: true,
    tools: true,
    toolsets: true,
    builtinFactories: true,
    telemetry: true,
  },
  {
    card: 'the card comes from the data; change it there',
    transport: 'the transport comes from the data; change it there',
    skills: 'the skills mode comes from the data; change it there',
    mcpServers: 'MCP servers come from the data; change them there',
  },
);

/**
 * Checks serialized agent data and builds the options of the agent it describes; nothing is created
 * until every field has been checked, so a bad field never leaves a half-restored agent.
 *
 * @throws ToolInputError naming the first malformed field (unknown field, card, policy, unknown
 *   built-in id, missing native implementation…); ToolDefinitionError for an override that is not known.
 */
export function restoreAgentOptions(data: unknown, overrides: AgentRestoreOverrides = {}): AgentOptions {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new ToolInputError(
      'Agent data must be an object with card, tools and (optionally) policy, transport, skills, mcpServers.',
    );
  }
  if (typeof overrides !== 'object' || overrides === null)
    throw new ToolInputError('Agent restore overrides must be an object.');
  assertKnownOptions(overrides, AGENT_RESTORE_OVERRIDES);
  const record = data as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!AGENT_DICT_FIELDS.includes(key)) {
      throw new ToolInputError(
        `Agent data has the unknown field '${key}'; the fields are ${AGENT_DICT_FIELDS.join(', ')}.`,
      );
    }
  }
  const card = AgentCard.fromJSON(record.card, 'card');
  const transport = readChoice(record.transport, 'transport', ['runtime', 'http'], 'runtime');
  const skills = readChoice(record.skills, 'skills', ['auto', 'fixed'], 'auto');
  if (record.customPolicy !== undefined && overrides.policy === undefined) {
    throw new ToolInputError(
      `The saved agent used a custom policy ('${String(record.customPolicy)}') that data cannot carry; pass it as ` +
        'overrides.policy when restoring (the agent never falls back to the allow-by-default policy).',
    );
  }
  const policy =
    overrides.policy ??
    (record.policy === undefined || record.policy === null
      ? undefined
      : CapabilityPolicy.fromDict(record.policy, 'policy'));
  const tools = restoreTools(record.tools, overrides);
  const mcpServers = readMcpServers(record.mcpServers);
  return {
    card,
    transport,
    skills,
    policy,
    approvalHandler: overrides.approvalHandler,
    elicitationHandler: overrides.elicitationHandler,
    samplingHandler: overrides.samplingHandler,
    telemetry: overrides.telemetry,
    tools,
    mcpServers,
  };
}

function readChoice<T extends string>(value: unknown, field: string, choices: readonly T[], fallback: T): T {
  if (value === undefined || value === null) return fallback;
  if (!choices.includes(value as T))
    throw new ToolInputError(
      `${field} must be one of ${choices.map((choice) => `'${choice}'`).join(', ')}; got ${JSON.stringify(value)}.`,
    );
  return value as T;
}

function restoreTools(entries: unknown, overrides: AgentRestoreOverrides): BaseTool[] {
  if (entries === undefined || entries === null) entries = [];
  if (!Array.isArray(entries))
    throw new ToolInputError('tools must be a list of { type: builtin | native, name, … } entries.');
  const natives = collectNativeTools(overrides);
  const factories = { ...DEFAULT_BUILTIN_TOOL_FACTORIES, ...(overrides.builtinFactories ?? {}) };
  const restored: BaseTool[] = [];
  const seen = new Set<string>();
  entries.forEach((entry: unknown, index) => {
    const field = `tools[${index}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
      throw new ToolInputError(
        `${field} must be an object such as { type: 'builtin', builtinId: 'calculator', name: 'calculator' }.`,
      );
    const item = entry as Record<string, unknown>;
    if (typeof item.name !== 'string' || item.name === '')
      throw new ToolInputError(`${field}.name must be a non-empty string.`);
    if (seen.has(item.name))
      throw new ToolInputError(
        `${field}.name '${item.name}' appears twice; tool names are unique per agent.`,
      );
    seen.add(item.name);
    if (item.type === 'builtin') restored.push(restoreBuiltin(item, field, factories));
    else if (item.type === 'native') {
      const tool = natives.get(item.name);
      if (!tool) {
        throw new ToolInputError(
          `${field} is the native tool '${item.name}', whose implementation is code and is not serialized; pass it in overrides.tools or overrides.toolsets.`,
        );
      }
      restored.push(tool);
    } else {
      throw new ToolInputError(
        `${field}.type must be 'builtin' or 'native' (MCP tools belong under mcpServers); got ${JSON.stringify(item.type)}.`,
      );
    }
  });
  // Native implementations given but not named in the data are registered too: the caller asked for them.
  for (const tool of natives.values()) if (!seen.has(tool.name)) restored.push(tool);
  return restored;
}

function restoreBuiltin(
  item: Record<string, unknown>,
  field: string,
  factories: Readonly<Record<string, BuiltinToolFactory>>,
): BaseTool {
  const id = item.builtinId;
  if (typeof id !== 'string' || id === '')
    throw new ToolInputError(`${field}.builtinId must name a built-in tool (${knownIds(factories)}).`);
  const factory = Object.prototype.hasOwnProperty.call(factories, id) ? factories[id] : undefined;
  if (!factory)
    throw new ToolInputError(
      `${field}.builtinId '${id}' is not a known built-in tool; known ids: ${knownIds(factories)}.`,
    );
  const options = item.options;
  if (options !== undefined && options !== null && (typeof options !== 'object' || Array.isArray(options))) {
    throw new ToolInputError(`${field}.options must be an object of the factory's options.`);
  }
  let tool: BaseTool;
  try {
    tool = factory((options ?? undefined) as Record<string, unknown> | undefined);
  } catch (error) {
    throw new ToolInputError(
      `${field}.options were refused by the '${id}' factory: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  if (tool.name !== item.name) {
    throw new ToolInputError(
      `${field}.name is '${item.name as string}' but the '${id}' factory builds '${tool.name}'; fix the name or the builtinId.`,
    );
  }
  return tool;
}

function collectNativeTools(overrides: AgentRestoreOverrides): Map<string, BaseTool> {
  const natives = new Map<string, BaseTool>();
  if (overrides.tools !== undefined && !Array.isArray(overrides.tools))
    throw new ToolInputError('overrides.tools must be an array of tools.');
  if (overrides.toolsets !== undefined && !Array.isArray(overrides.toolsets))
    throw new ToolInputError('overrides.toolsets must be an array of toolset instances.');
  for (const instance of overrides.toolsets ?? [])
    for (const tool of scanTools(instance)) natives.set(tool.name, tool);
  for (const tool of overrides.tools ?? []) natives.set(tool.name, tool);
  return natives;
}

function readMcpServers(value: unknown): McpServerDict[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new ToolInputError('mcpServers must be a list of server entries.');
  return value.map((server: unknown, index) => {
    if (typeof server !== 'object' || server === null || Array.isArray(server))
      throw new ToolInputError(`mcpServers[${index}] must be an object.`);
    const tools = (server as McpServerDict).tools;
    if (tools !== undefined && (!Array.isArray(tools) || tools.some((name) => typeof name !== 'string'))) {
      throw new ToolInputError(`mcpServers[${index}].tools must be a list of tool names.`);
    }
    return structuredClone(server as McpServerDict);
  });
}

function knownIds(factories: Readonly<Record<string, BuiltinToolFactory>>): string {
  const ids = Object.keys(factories).sort();
  return ids.length ? ids.join(', ') : 'none registered; pass overrides.builtinFactories';
}
