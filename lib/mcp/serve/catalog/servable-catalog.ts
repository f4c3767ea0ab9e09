import type { GetPromptResult } from '../../../prompts/prompt-messages';
import type {
  CatalogRegistry,
  CompletionReference,
  CompletionResult,
} from '../../../resources/catalog-registry';
import type { ReadResourceResult } from '../../../resources/resource-contents';
import type { RunContext } from '../../../runtime/run-context';

/**
 * The part of an agent that serving its resources and prompts needs: the catalog (lists, update notices)
 * and the guarded paths (policy, approval, cancellation) of reads, prompts, completions and the check a
 * subscription passes. An `Agent` has it.
 */
export interface ServableCatalogAgent {
  readonly catalog: CatalogRegistry;
  readResource(uri: string, context: RunContext): Promise<ReadResourceResult>;
  getPrompt(
    name: string,
    args: Record<string, unknown> | undefined,
    context: RunContext,
  ): Promise<GetPromptResult>;
  authorizeResourceRead(uri: string, context: RunContext): Promise<void>;
  complete(
    reference: CompletionReference,
    argument: { name: string; value: string },
    options: { arguments?: Record<string, string>; context?: RunContext },
  ): Promise<CompletionResult>;
}

/** Returns the agent as a {@link ServableCatalogAgent} when it has a catalog with something in it. */
export function servedCatalogOf(agent: object): ServableCatalogAgent | undefined {
  const candidate = agent as Partial<ServableCatalogAgent>;
  if (
    typeof candidate.catalog !== 'object' ||
    candidate.catalog === null ||
    typeof candidate.readResource !== 'function' ||
    typeof candidate.getPrompt !== 'function' ||
    typeof candidate.authorizeResourceRead !== 'function' ||
    typeof candidate.complete !== 'function' ||
    candidate.catalog.isEmpty
  )
    return undefined;
  return candidate as ServableCatalogAgent;
}

/**
 * The capabilities the catalog adds at initialize: `resources` (with `subscribe` and `listChanged`) when a
 * resource or template is registered, `prompts` when a prompt is, and `completions` with either; nothing for
 * an agent without a catalog, which advertises exactly its tools.
 */
export function toCatalogCapabilities(agent: ServableCatalogAgent | undefined): Record<string, object> {
  if (!agent) return {};
  const capabilities: Record<string, object> = { completions: {} };
  if (agent.catalog.hasResources) capabilities.resources = { subscribe: true, listChanged: true };
  if (agent.catalog.hasPrompts) capabilities.prompts = { listChanged: true };
  return capabilities;
}
