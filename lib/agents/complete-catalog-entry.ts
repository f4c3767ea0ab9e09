import { ToolInputError } from '../errors/tool-input-error';
import { authorizeAction } from '../policy/authorize-action';
import type { PromptEntry, ResourceTemplateEntry } from '../resources/catalog-entry';
import { askCompletionProvider } from '../resources/catalog-registry';
import type { CatalogRegistry, CompletionReference, CompletionResult } from '../resources/catalog-registry';
import { raceCancellation } from '../runtime/race-cancellation';
import { RunAction } from '../runtime/run-action';
import { RunContext } from '../runtime/run-context';
import { approvalThroughChannel } from './approval-through-channel';
import type { ToolCallHost } from './execute-tool-call';

/** Options of `agent.complete()`. */
export interface CompleteOptions {
  /** The values of the other variables or arguments already given, by name (told to the provider). */
  arguments?: Record<string, string>;
  /**
   * The run context: its permissions narrow the policy, its cancellation and deadline bound the provider,
   * and the provider gets it as `context.runContext` (default: a fresh one).
   */
  context?: RunContext;
}

/**
 * Completes a template variable or prompt argument through the entry's guard: the same action as a read of
 * the template (`resource.read`) or a get of the prompt (`prompt.get`), same name and capabilities, with
 * `payload.completion` `{ argument, value }` and the other values given as `payload.arguments`, goes through
 * the policy and approval before the provider runs; the provider then runs with the context, raced against
 * its cancellation. A completion is not a tool call: it is not counted against the budget.
 *
 * @throws PromptNotFoundError or ResourceNotFoundError for an unknown reference; ToolInputError for an
 *   argument the entry does not have, a context that is not a RunContext, or a provider that returns
 *   something else than strings; ActionDeniedError, ApprovalRequiredError, ActionPolicyError when the
 *   policy refuses; ToolCancelledError; or the provider's own error.
 */
export async function completeCatalogEntry(
  host: ToolCallHost,
  catalog: CatalogRegistry,
  reference: CompletionReference,
  argument: { name: string; value: string },
  options: CompleteOptions = {},
): Promise<CompletionResult> {
  const context = options.context ?? new RunContext();
  if (!(context instanceof RunContext))
    throw new ToolInputError(
      'agent.complete(reference, argument, { context }) needs a RunContext as context; create one with new RunContext({ permissions, signal }) or leave it out.',
    );
  const resolved = catalog.resolveCompletion(reference, argument);
  const given = { ...options.arguments };
  const action = toCompletionAction(resolved.entry, argument, given);
  const authorization = authorizeAction(action, context, {
    policy: host.policy,
    approvalHandler: host.approvalHandler ?? approvalThroughChannel(context),
  });
  if (authorization instanceof Promise) await authorization;
  context.throwIfCanceled(action.name);
  return raceCancellation(
    context,
    askCompletionProvider(resolved, argument, { arguments: given, runContext: context }),
    `The completion of '${resolved.argumentName}' for '${action.name}'`,
    action.name,
  );
}

/** The action a completion is authorized as: the entry's read (or get), marked as a completion. */
function toCompletionAction(
  entry: PromptEntry | ResourceTemplateEntry,
  argument: { name: string; value: string },
  given: Record<string, string>,
): RunAction {
  return new RunAction({
    kind: entry.kind === 'prompt' ? 'prompt.get' : 'resource.read',
    name: entry.kind === 'prompt' ? entry.name : entry.uriTemplate,
    description: entry.description ?? null,
    payload: { arguments: given, completion: { argument: argument.name, value: argument.value } },
    capabilities: entry.capabilities,
  });
}
