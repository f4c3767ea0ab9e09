import { assertKnownOptions, defineKnownOptions } from '../runtime/assert-known-options';
import type { CapabilityList } from '../capabilities/capability-name';
import type { JsonSchema } from '../tools/json-schema';
import { NativeTool } from '../tools/native-tool';
import type { ActionBuilder, ToolFunction } from '../tools/tool-types';

/** Options of `agent.tool()`: a NativeTool's options without the function. */
export interface AgentToolOptions {
  /** 1–64 characters of `[A-Za-z0-9_-]`. */
  name: string;
  /** What the tool does and when to call it. */
  description: string;
  /** JSON Schema, DTO class or legacy field map of the arguments. */
  inputSchema?: JsonSchema | Function | Record<string, unknown> | null;
  /** JSON Schema or DTO class of the result (advertised). */
  outputSchema?: JsonSchema | Function | null;
  /** Labels. */
  tags?: string[] | null;
  /** Example argument objects. */
  examples?: unknown[] | null;
  /** Capabilities the policy checks, e.g. `['records.write']` or a `Set` (any iterable; lower-cased). */
  capabilities?: CapabilityList | null;
  /** Builds the RunAction the policy evaluates (previews for approvers). */
  actionBuilder?: ActionBuilder | null;
}

/** Options of `agent.addTool()` and `agent.addToolset()`. */
export interface AgentAddToolOptions {
  /**
   * Replace a tool of the same name even when it comes from another source (native, built-in, another
   * MCP server). Without it, only a tool from the same source is replaced and a clash is refused.
   */
  replace?: boolean;
}

/** The options of `agent.tool()`, and advice for the names people pass instead. */
export const AGENT_TOOL_OPTIONS = defineKnownOptions<AgentToolOptions>(
  'agent.tool()',
  {
    name: true,
    description: true,
    inputSchema: true,
    outputSchema: true,
    tags: true,
    examples: true,
    capabilities: true,
    actionBuilder: true,
  },
  {
    args: "it is the original's legacy field map; pass inputSchema (a JSON Schema, a DTO class or a legacy field map such as { a: 'int' }) instead",
    func: "the function is agent.tool()'s second argument: agent.tool({ name, description }, (args) => …)",
    parameters: 'pass the JSON Schema of the arguments as inputSchema instead',
  },
);

/** The options of `agent.addTool()` and `agent.addToolset()`. */
export const AGENT_ADD_TOOL_OPTIONS = defineKnownOptions<AgentAddToolOptions>('agent.addTool()', {
  replace: true,
});

/** The NativeTool `agent.tool(options, func)` registers (null schemas mean none). */
export function toAgentNativeTool(options: AgentToolOptions, func: ToolFunction): NativeTool {
  return new NativeTool({
    ...options,
    inputSchema: options.inputSchema ?? undefined,
    outputSchema: options.outputSchema ?? undefined,
    func,
  });
}

/**
 * What `agent.tool(options, fn?)` does: checks the options, then registers `fn` as a tool through `addTool`
 * and returns it unchanged; with no `fn`, returns a decorator that does the same.
 *
 * @throws ToolDefinitionError for a bad name, schema or builder, or an option that is not known.
 */
export function registerToolFunction<F extends ToolFunction>(
  options: AgentToolOptions,
  fn: F | undefined,
  addTool: (tool: NativeTool) => void,
): F | (<G extends ToolFunction>(fn: G) => G) {
  if (typeof options === 'object' && options !== null) assertKnownOptions(options, AGENT_TOOL_OPTIONS);
  const register = <G extends ToolFunction>(func: G): G => {
    addTool(toAgentNativeTool(options, func));
    return func;
  };
  return fn === undefined ? register : register(fn);
}
