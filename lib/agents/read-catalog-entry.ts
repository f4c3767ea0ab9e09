import { ToolValidationError } from '../errors/tool-validation-error';
import type { GetPromptResult } from '../prompts/prompt-messages';
import { toPromptMessages } from '../prompts/prompt-messages';
import type { CatalogEntry } from '../resources/catalog-entry';
import type { CatalogRegistry } from '../resources/catalog-registry';
import { toResourceContents } from '../resources/resource-contents';
import type { ReadResourceResult } from '../resources/resource-contents';
import { RunContext } from '../runtime/run-context';
import { ToolInputError } from '../errors/tool-input-error';
import { authorizeAction } from '../policy/authorize-action';
import { approvalThroughChannel } from './approval-through-channel';
import { prepareToolCall } from './prepare-tool-call';
import { executeToolCall } from './execute-tool-call';
import type { ToolCallHost } from './execute-tool-call';
import { AgentSkill } from './agent-skill';

/**
 * Reads a resource through the controlled path of a tool call: the URI's entry, its template variables
 * validated and coerced like tool arguments, the action (`resource.read`, the URI or template as its name,
 * the entry's capabilities) through the policy and approval, budget and cancellation, then the method. A
 * denied read rejects; it never returns data.
 *
 * @throws ResourceNotFoundError, ToolValidationError, ActionDeniedError, ApprovalRequiredError,
 *   ActionPolicyError, BudgetExceededError, ToolCancelledError, ToolDefinitionError (a malformed result), or
 *   the method's own error.
 */
export async function readCatalogResource(
  host: ToolCallHost,
  catalog: CatalogRegistry,
  uri: string,
  context: RunContext,
): Promise<ReadResourceResult> {
  const { entry, args } = catalog.resolveResource(uri);
  const result = await executeToolCall(hostFor(host, entry), entry.tool.name, context, args).catch(
    renameInvalid(`the resource '${uri}'`),
  );
  return toResourceContents(result, uri, entry.mimeType, `The resource '${uri}'`);
}

/**
 * Authorizes a read of a resource without reading it (what `resources/subscribe` asks before recording a
 * subscription): the URI's entry, its template variables validated, the read's action through the policy and
 * approval, and cancellation; the method does not run and nothing is charged to the budget.
 *
 * @throws ToolInputError when `context` is not a RunContext; ResourceNotFoundError, ToolValidationError,
 *   ActionDeniedError, ApprovalRequiredError, ActionPolicyError, ToolCancelledError.
 */
export async function authorizeCatalogResource(
  host: ToolCallHost,
  catalog: CatalogRegistry,
  uri: string,
  context: RunContext,
): Promise<void> {
  if (!(context instanceof RunContext))
    throw new ToolInputError(
      `authorizeResourceRead('${String(uri)}', context) needs a RunContext as context; create one with new RunContext({ permissions, signal }) or leave it out.`,
    );
  const { entry, args } = catalog.resolveResource(uri);
  context.throwIfCanceled(entry.tool.name);
  try {
    const preparing = prepareToolCall(entry.tool, args, context);
    const prepared = preparing instanceof Promise ? await preparing : preparing;
    const authorization = authorizeAction(prepared.action, context, {
      policy: host.policy,
      approvalHandler: host.approvalHandler ?? approvalThroughChannel(context),
    });
    if (authorization instanceof Promise) await authorization;
  } catch (error) {
    renameInvalid(`the resource '${uri}'`)(error);
  }
  context.throwIfCanceled(entry.tool.name);
}

/**
 * Gets a prompt's messages through the controlled path of a tool call (arguments validated and coerced,
 * action `prompt.get` through the policy and approval, budget, cancellation).
 *
 * @throws PromptNotFoundError, ToolValidationError, ActionDeniedError, ApprovalRequiredError,
 *   ActionPolicyError, BudgetExceededError, ToolCancelledError, ToolDefinitionError (a malformed result), or
 *   the method's own error.
 */
export async function getCatalogPrompt(
  host: ToolCallHost,
  catalog: CatalogRegistry,
  name: string,
  context: RunContext,
  args: Record<string, unknown> = {},
): Promise<GetPromptResult> {
  const entry = catalog.resolvePrompt(name);
  const result = await executeToolCall(hostFor(host, entry), entry.tool.name, context, args).catch(
    renameInvalid(`the prompt '${name}'`),
  );
  const messages = Object.freeze(toPromptMessages(result, `The prompt '${name}'`));
  return Object.freeze(
    entry.description === undefined ? { messages } : { description: entry.description, messages },
  );
}

/** The skill that advertises a catalog entry on the card (tagged `resource`, `resource-template` or `prompt`). */
export function toCatalogSkill(entry: CatalogEntry): AgentSkill {
  const target =
    entry.kind === 'resource'
      ? entry.uri
      : entry.kind === 'resourceTemplate'
        ? entry.uriTemplate
        : entry.name;
  const tag =
    entry.kind === 'resource'
      ? 'resource'
      : entry.kind === 'resourceTemplate'
        ? 'resource-template'
        : 'prompt';
  return new AgentSkill({
    id: `${tag}:${target}`,
    name: entry.title ?? entry.name,
    description: entry.description ?? `${tag === 'prompt' ? 'Prompt' : 'Resource'}: ${target}`,
    tags: [tag],
    inputSchema: entry.kind === 'resource' ? {} : entry.tool.inputSchema,
  });
}

/** Names the resource or prompt (not its internal tool) in a validation error's message. */
function renameInvalid(subject: string): (error: unknown) => never {
  return (error) => {
    if (!(error instanceof ToolValidationError)) throw error;
    throw new ToolValidationError({
      issues: [...error.issues],
      subject,
      toolName: error.toolName,
      cause: error,
    });
  };
}

function hostFor(host: ToolCallHost, entry: CatalogEntry): ToolCallHost {
  return { ...host, resolveTool: () => entry.tool };
}
