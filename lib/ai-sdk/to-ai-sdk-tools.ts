import { jsonSchema, tool } from 'ai';
import type { ToolSet } from 'ai';
import type { Agent } from '../agents/agent';
import { ToolInputError } from '../errors/tool-input-error';
import { collectTools } from '../llm/collect-tools';
import { assertBridgeContextSource, openBridgeContext } from '../llm/open-bridge-context';
import type { BridgeContextSource } from '../llm/open-bridge-context';
import { lowerJsonSchema } from '../llm/schema/lower-json-schema';
import { readToolDeclarationSource } from '../llm/tool-declaration-source';
import { grantExternalApproval } from '../policy/external-approval';
import type { JsonSchema } from '../tools/json-schema';
import { findSdkApproval } from './find-sdk-approval';

/** Who answers a policy's `require_approval`. */
export type AISDKApprovalMode = 'agent' | 'sdk';

/** Options of {@link toAISDKTools}. */
export interface ToAISDKToolsOptions {
  /**
   * `'agent'` (default): the agent's `approvalHandler` is asked inside the call, as for any call.
   * `'sdk'`: a call the policy sends to approval becomes the AI SDK's `needsApproval` flow (the run stops
   * with a `tool-approval-request`); the `tool-approval-response` you send back is the approval, recorded
   * as the `ApprovalDecision` of the call (decidedBy `'ai-sdk'`), and action builders still run.
   */
  approval?: AISDKApprovalMode;
  /**
   * The run every call belongs to (budgets, permissions, cancellation), or a function returning it per
   * call. Each call runs in a child of it, canceled by the AI SDK's `abortSignal`. Default: a fresh run
   * per call.
   */
  context?: BridgeContextSource;
}

/** A JSON Schema as the AI SDK's `jsonSchema()` helper types it. */
type SdkJsonSchema = Exclude<
  Parameters<typeof jsonSchema>[0],
  PromiseLike<unknown> | ((...args: never[]) => unknown)
>;

const BRIDGE = 'toAISDKTools()';

/**
 * Returns the agent's tools as an AI SDK `ToolSet` for `generateText`, `streamText` or an AI SDK agent.
 * The model sees each tool's JSON Schema; every call goes through `agent.callToolInContext` (validation and
 * coercion, policy, approval, budgets, cancellation, events), so a Protolink error reaches the model as the
 * AI SDK's tool error, with every validation problem listed.
 *
 * @throws ToolInputError for unknown options; ToolDefinitionError when a tool's schema cannot be offered
 *   to a model (its root is not an object).
 */
export function toAISDKTools(agent: Agent, options: ToAISDKToolsOptions = {}): ToolSet {
  const mode = options.approval ?? 'agent';
  if (mode !== 'agent' && mode !== 'sdk') {
    throw new ToolInputError(
      `${BRIDGE} approval must be 'agent' or 'sdk'; got ${JSON.stringify(options.approval)}.`,
    );
  }
  assertBridgeContextSource(options.context, BRIDGE);
  const tools: ToolSet = {};
  for (const each of collectTools(agent)) {
    const source = readToolDeclarationSource(each, 'the AI SDK');
    const name = source.name;
    const schema = lowerJsonSchema(source.schema, { toolName: name, target: 'the AI SDK' });
    tools[name] = tool<Record<string, unknown>, unknown>({
      ...(source.description === undefined ? {} : { description: source.description }),
      // No `validate`: the AI SDK passes the model's raw input on, and Protolink validates (and coerces) it.
      inputSchema: jsonSchema<Record<string, unknown>>(toSdkJsonSchema(schema)),
      ...(mode === 'sdk'
        ? {
            needsApproval: async (input, { toolCallId }) => {
              const context = openBridgeContext(
                options.context,
                { toolName: name, toolCallId },
                undefined,
                BRIDGE,
              );
              try {
                return (await agent.checkPolicy(name, input, context)).effect === 'require_approval';
              } catch {
                // Invalid arguments or a failing policy are reported by the call itself.
                return false;
              }
            },
          }
        : {}),
      execute: async (input, { toolCallId, abortSignal, messages }) => {
        const context = openBridgeContext(
          options.context,
          { toolName: name, toolCallId },
          abortSignal,
          BRIDGE,
        );
        if (mode === 'sdk') {
          const approval = findSdkApproval(messages, toolCallId);
          if (approval) {
            grantExternalApproval(context, {
              toolName: name,
              decidedBy: 'ai-sdk',
              reason: approval.reason,
              metadata: { approvalId: approval.approvalId, toolCallId },
            });
          }
        }
        const result = await agent.callToolInContext(name, context, input);
        // The AI SDK sends `undefined` as JSON null anyway; saying so keeps results JSON values.
        return result === undefined ? null : result;
      },
    });
  }
  return tools;
}

/**
 * Protolink's `JsonSchema` is a structural superset of draft-07 (`$defs`, 2020-12 keywords), which the AI
 * SDK's `JSONSchema7` type does not name; the providers pass the object through unchanged, so only the
 * static type differs.
 */
function toSdkJsonSchema(schema: JsonSchema): SdkJsonSchema {
  return schema as SdkJsonSchema;
}
