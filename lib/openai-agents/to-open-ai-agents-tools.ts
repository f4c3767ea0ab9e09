import { tool } from '@openai/agents';
import type { FunctionTool, JsonSchemaDefinition, RunContext as AgentsRunContext } from '@openai/agents';
import type { Agent } from '../agents/agent';
import { BudgetExceededError } from '../errors/budget-exceeded-error';
import { ToolCancelledError } from '../errors/tool-cancelled-error';
import { ToolInputError } from '../errors/tool-input-error';
import { collectTools } from '../llm/collect-tools';
import { describeToolFailure } from '../llm/describe-tool-failure';
import { assertBridgeContextSource, openBridgeContext } from '../llm/open-bridge-context';
import type { BridgeContextSource } from '../llm/open-bridge-context';
import { readToolDeclarationSource } from '../llm/tool-declaration-source';
import type { BaseTool } from '../tools/base-tool';
import { toFunctionToolParameters } from './to-function-tool-parameters';
import type { FunctionToolParameters } from './to-function-tool-parameters';

/** A tool offered without strict mode, and why. */
export interface NonStrictToolNotice {
  /** The tool. */
  readonly toolName: string;
  /** Why its schema cannot be strict (the lowering's or the OpenAI Agents SDK's message). */
  readonly reason: string;
}

/** Options of {@link toOpenAIAgentsTools}. */
export interface ToOpenAIAgentsToolsOptions {
  /**
   * The run every call belongs to (budgets, permissions, cancellation), or a function returning it per
   * call. Each call runs in a child of it, canceled by the run's `signal`. Default: a fresh run per call.
   */
  context?: BridgeContextSource;
  /** Offer strict schemas (default true); a tool whose schema cannot be strict falls back to non-strict. */
  strict?: boolean;
  /**
   * Told about each tool that falls back to non-strict. Default: a process warning
   * (`PROTOLINK_NON_STRICT_TOOL`), so the fallback is never silent.
   */
  onNonStrict?: (notice: NonStrictToolNotice) => void;
}

/** A FunctionTool built from a Protolink tool (its parameters are a JSON Schema object). */
export type OpenAIAgentsFunctionTool = FunctionTool<unknown, JsonSchemaDefinition['schema'], unknown>;

const BRIDGE = 'toOpenAIAgentsTools()';

/**
 * Returns the agent's tools as OpenAI Agents SDK `FunctionTool`s for `new Agent({ tools })`. Schemas are
 * lowered to OpenAI strict mode (closed objects, every key required, optional keys nullable; Protolink
 * turns the `null`s back into "absent"); every call goes through `agent.callToolInContext` (validation,
 * policy, approval, budgets, events), canceled by the run's `signal`. Failures reach the model as
 * Protolink's JSON problem (every validation issue, denials, the tool's own error message); cancellation
 * and exhausted budgets end the run instead.
 *
 * @throws ToolInputError for a bad option; ToolDefinitionError for a tool name no model accepts.
 */
export function toOpenAIAgentsTools(
  agent: Agent,
  options: ToOpenAIAgentsToolsOptions = {},
): OpenAIAgentsFunctionTool[] {
  assertBridgeContextSource(options.context, BRIDGE);
  if (options.onNonStrict !== undefined && typeof options.onNonStrict !== 'function') {
    throw new ToolInputError(`${BRIDGE} onNonStrict must be a function (notice) => void.`);
  }
  const notify = options.onNonStrict ?? warnNonStrict;
  return collectTools(agent).map((each) => {
    const parameters = toFunctionToolParameters(readToolDeclarationSource(each, 'the OpenAI Agents SDK'), {
      strict: options.strict ?? true,
    });
    if (parameters.strict) {
      try {
        return buildTool(agent, each, parameters, options.context);
      } catch (error) {
        // The SDK checks strict schemas itself; what it refuses is offered non-strict too.
        const reason = error instanceof Error ? error.message : String(error);
        const fallback = toFunctionToolParameters(readToolDeclarationSource(each, 'the OpenAI Agents SDK'), {
          strict: false,
          reason,
        });
        notify({ toolName: each.name, reason });
        return buildTool(agent, each, fallback, options.context);
      }
    }
    if (parameters.reason !== undefined) notify({ toolName: each.name, reason: parameters.reason });
    return buildTool(agent, each, parameters, options.context);
  });
}

function buildTool(
  agent: Agent,
  source: BaseTool,
  parameters: FunctionToolParameters,
  context: BridgeContextSource | undefined,
): OpenAIAgentsFunctionTool {
  const name = source.name;
  const description = typeof source.description === 'string' ? source.description : '';
  const execute = async (
    input: unknown,
    _runContext?: AgentsRunContext<unknown>,
    details?: { toolCall?: { callId?: string }; signal?: AbortSignal },
  ): Promise<unknown> => {
    const call = { toolName: name, toolCallId: details?.toolCall?.callId };
    const runContext = openBridgeContext(context, call, details?.signal, BRIDGE);
    const result = await agent.callToolInContext(name, runContext, input as Record<string, unknown>);
    return result === undefined ? null : result;
  };
  const errorFunction = (_runContext: AgentsRunContext<unknown>, error: unknown): string => {
    // Like the Protolink tool loop: cancellation and budgets end the run, everything else is told to the model.
    if (error instanceof ToolCancelledError || error instanceof BudgetExceededError) throw error;
    return JSON.stringify({ error: describeToolFailure(error, name) });
  };
  return parameters.strict
    ? tool({ name, description, parameters: parameters.schema, strict: true, execute, errorFunction })
    : tool({ name, description, parameters: parameters.schema, strict: false, execute, errorFunction });
}

function warnNonStrict(notice: NonStrictToolNotice): void {
  process.emitWarning(
    `Tool '${notice.toolName}' is offered to the OpenAI Agents SDK without strict mode: ${notice.reason}`,
    { code: 'PROTOLINK_NON_STRICT_TOOL' },
  );
}
