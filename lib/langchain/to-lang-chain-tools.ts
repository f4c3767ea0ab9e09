import { ToolMessage } from '@langchain/core/messages';
import { DynamicStructuredTool } from '@langchain/core/tools';
import type { Agent } from '../agents/agent';
import { collectTools } from '../llm/collect-tools';
import { assertBridgeContextSource, openBridgeContext } from '../llm/open-bridge-context';
import type { BridgeContextSource } from '../llm/open-bridge-context';
import { lowerJsonSchema } from '../llm/schema/lower-json-schema';
import { readToolDeclarationSource } from '../llm/tool-declaration-source';
import { describeFailureForModel } from './describe-failure-for-model';
import { toLangChainSchema } from './to-lang-chain-schema';

/** Options of {@link toLangChainTools}. */
export interface ToLangChainToolsOptions {
  /**
   * The run every call belongs to (budgets, permissions, cancellation), or a function returning it per
   * call. Each call runs in a child of it, canceled by the run's `signal`. Default: a fresh run per call.
   */
  context?: BridgeContextSource;
}

const BRIDGE = 'toLangChainTools()';

/**
 * Returns the agent's tools as LangChain `StructuredTool`s for `createAgent`, `model.bindTools()` or direct
 * `.invoke()`. LangChain hands the model's raw input to Protolink, which validates and coerces it (`"3"`
 * for an integer, `null` for an optional field) and runs it through `agent.callToolInContext` (policy,
 * approval, budgets, cancellation by the run's `signal`, events).
 *
 * A failure the model can fix or must know about (invalid arguments with every problem, an unknown tool, a
 * denial, a missing approval) comes back as an error `ToolMessage` holding Protolink's JSON problem when
 * the tool is invoked with a tool call; invoked with plain arguments, it throws. The tool's own errors,
 * cancellation and budget errors are thrown for LangChain's `handleToolErrors` to deal with.
 *
 * @throws ToolInputError for a bad `context` option; ToolDefinitionError when a tool's schema cannot be
 *   offered to a model (its root is not an object).
 */
export function toLangChainTools(
  agent: Agent,
  options: ToLangChainToolsOptions = {},
): DynamicStructuredTool[] {
  assertBridgeContextSource(options.context, BRIDGE);
  return collectTools(agent).map((each) => {
    const source = readToolDeclarationSource(each, 'LangChain');
    const name = source.name;
    const schema = lowerJsonSchema(source.schema, { toolName: name, target: 'LangChain' });
    return new DynamicStructuredTool({
      name,
      description: source.description ?? '',
      schema: toLangChainSchema(schema),
      func: async (input: unknown, _runManager, config) => {
        const toolCallId = readToolCallId(config);
        const context = openBridgeContext(
          options.context,
          { toolName: name, toolCallId },
          config?.signal,
          BRIDGE,
        );
        try {
          return await agent.callToolInContext(name, context, input as Record<string, unknown>);
        } catch (error) {
          const text = describeFailureForModel(error, name);
          if (text === undefined || toolCallId === undefined) throw error;
          return new ToolMessage({ content: text, tool_call_id: toolCallId, name, status: 'error' });
        }
      },
    });
  });
}

/** LangChain puts the tool call on the config when a tool is invoked with one (`ToolRunnableConfig.toolCall`). */
function readToolCallId(config: unknown): string | undefined {
  const toolCall = (config as { toolCall?: { id?: unknown } } | undefined)?.toolCall;
  return typeof toolCall?.id === 'string' ? toolCall.id : undefined;
}
