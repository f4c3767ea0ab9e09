import { PromptNotFoundError } from '../errors/prompt-not-found-error';
import { ResourceNotFoundError } from '../errors/resource-not-found-error';
import { ToolDefinitionError } from '../errors/tool-definition-error';
import { ToolInputError } from '../errors/tool-input-error';
import type { McpUriVariableRefusal } from './match-mcp-uri-template';
import type { CatalogEntry, PromptEntry, ResourceEntry, ResourceTemplateEntry } from './catalog-entry';
import type { CompletionContext, CompletionProvider } from './completion-provider';
import { scanCatalog } from './scan-catalog';

/** Most completion values sent for one request (MCP's limit). */
export const MAX_COMPLETION_VALUES = 100;

/** What a completion request refers to: a prompt by name, or a resource template by its URI template. */
export type CompletionReference =
  { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

/** The answer of a completion request (MCP's `completion`). */
export interface CompletionResult {
  readonly values: readonly string[];
  readonly total?: number;
  readonly hasMore: boolean;
}

/** A resolved read: the entry that serves a URI and the variables read from it. */
export interface ResolvedResource {
  readonly entry: ResourceEntry | ResourceTemplateEntry;
  readonly args: Record<string, string>;
}

/** A resolved completion: the prompt or template, the argument, and the argument's provider (if any). */
export interface ResolvedCompletion {
  readonly entry: PromptEntry | ResourceTemplateEntry;
  readonly argumentName: string;
  readonly provider: CompletionProvider | undefined;
}

/**
 * Asks a resolved completion's provider for values (none: no values); at most
 * {@link MAX_COMPLETION_VALUES} are returned, `hasMore` says when there were more.
 *
 * @throws ToolInputError when the provider returns something else than strings.
 */
export async function askCompletionProvider(
  resolved: ResolvedCompletion,
  argument: { name: string; value: string },
  context: CompletionContext,
): Promise<CompletionResult> {
  const { entry, provider, argumentName } = resolved;
  if (!provider) return { values: [], hasMore: false };
  const values = await provider(argument.value, context);
  if (!Array.isArray(values) || values.some((value) => typeof value !== 'string'))
    throw new ToolInputError(
      `The complete.${argumentName} provider of ${describe(entry)} must return a list of strings.`,
    );
  return {
    values: values.slice(0, MAX_COMPLETION_VALUES),
    total: values.length,
    hasMore: values.length > MAX_COMPLETION_VALUES,
  };
}

/**
 * Holds the resources, resource templates and prompts found on service objects, and tells listeners when a
 * resource changed (`notifyResourceUpdated`). An instance per agent, never a global.
 */
export class CatalogRegistry {
  private readonly resources = new Map<string, ResourceEntry>();
  private readonly templates = new Map<string, ResourceTemplateEntry>();
  private readonly prompts = new Map<string, PromptEntry>();
  private readonly updateListeners = new Set<(uri: string) => void>();
  private readonly changeListeners = new Set<(kind: 'resources' | 'prompts') => void>();

  /** Whether nothing is registered. */
  get isEmpty(): boolean {
    return this.resources.size + this.templates.size + this.prompts.size === 0;
  }

  /** Whether any resource or template is registered. */
  get hasResources(): boolean {
    return this.resources.size + this.templates.size > 0;
  }

  /** Whether any prompt is registered. */
  get hasPrompts(): boolean {
    return this.prompts.size > 0;
  }

  /**
   * Scans an instance's catalog methods and checks that none clashes with a registered entry; returns them
   * for {@link add} (nothing is registered yet, so a later failure leaves nothing half-added).
   *
   * @throws ToolDefinitionError when a method is declared wrongly or a URI, template or prompt name is taken.
   */
  scan(instance: object): CatalogEntry[] {
    const entries = scanCatalog(instance);
    const seen = new Set<string>();
    for (const entry of entries) {
      const key = keyOf(entry);
      if (seen.has(key) || this.has(entry))
        throw new ToolDefinitionError(
          `${instance.constructor.name} declares ${describe(entry)}, which is already registered; give each one a unique ${entry.kind === 'prompt' ? 'name' : 'URI'}.`,
        );
      seen.add(key);
    }
    return entries;
  }

  /** Adds entries returned by {@link scan}. */
  add(entries: readonly CatalogEntry[]): void {
    for (const entry of entries) {
      if (entry.kind === 'resource') this.resources.set(entry.uri, entry);
      else if (entry.kind === 'resourceTemplate') this.templates.set(entry.uriTemplate, entry);
      else this.prompts.set(entry.name, entry);
    }
    const kinds = new Set<'resources' | 'prompts'>(
      entries.map((entry) => (entry.kind === 'prompt' ? 'prompts' : 'resources')),
    );
    for (const kind of kinds) for (const listener of [...this.changeListeners]) listener(kind);
  }

  /** Listens for entries added after serving started (`list_changed`); returns the function that stops. */
  onListChanged(listener: (kind: 'resources' | 'prompts') => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** The resources, in registration order. */
  listResources(): ResourceEntry[] {
    return [...this.resources.values()];
  }

  /** The resource templates, in registration order. */
  listResourceTemplates(): ResourceTemplateEntry[] {
    return [...this.templates.values()];
  }

  /** The prompts, in registration order. */
  listPrompts(): PromptEntry[] {
    return [...this.prompts.values()];
  }

  /**
   * Finds what serves a URI: the resource of that URI, else the first template (in registration order) that
   * matches it, with the variables read from the URI.
   *
   * @throws ResourceNotFoundError when nothing serves it.
   */
  resolveResource(uri: string): ResolvedResource {
    if (typeof uri !== 'string' || uri === '')
      throw new ToolInputError(`A resource URI must be a non-empty string, got ${JSON.stringify(uri)}.`);
    const resource = this.resources.get(uri);
    if (resource) return { entry: resource, args: {} };
    for (const template of this.templates.values()) {
      const args = template.matcher.match(uri);
      if (args) return { entry: template, args: { ...args } };
    }
    throw new ResourceNotFoundError({ uri, reason: this.refusalOf(uri) });
  }

  /**
   * Returns the prompt of that name.
   *
   * @throws PromptNotFoundError listing the prompts that exist.
   */
  resolvePrompt(name: string): PromptEntry {
    const prompt = this.prompts.get(name);
    if (!prompt)
      throw new PromptNotFoundError({ promptName: String(name), availablePrompts: [...this.prompts.keys()] });
    return prompt;
  }

  /**
   * Suggests values for a prompt argument or template variable through its `complete` provider (none: no
   * values), with no policy in between (as `tool.call()` has none): `agent.complete()` is the controlled
   * path. At most {@link MAX_COMPLETION_VALUES} are returned, `hasMore` says when there were more.
   *
   * @throws PromptNotFoundError or ResourceNotFoundError for an unknown reference; ToolInputError for an
   *   argument the prompt or template does not have, or a provider that returns something else than strings.
   */
  async complete(
    reference: CompletionReference,
    argument: { name: string; value: string },
    context: CompletionContext = {},
  ): Promise<CompletionResult> {
    return askCompletionProvider(this.resolveCompletion(reference, argument), argument, context);
  }

  /**
   * Finds what a completion refers to: the prompt or template, and the provider of the argument (undefined
   * when it has none).
   *
   * @throws PromptNotFoundError or ResourceNotFoundError for an unknown reference; ToolInputError for a
   *   malformed reference, an argument the prompt or template does not have, or a value that is not a string.
   */
  resolveCompletion(
    reference: CompletionReference,
    argument: { name: string; value: string },
  ): ResolvedCompletion {
    const entry = this.resolveReference(reference);
    const names =
      entry.kind === 'prompt' ? entry.arguments.map((item) => item.name) : entry.matcher.variables;
    const argumentName = argument?.name;
    if (typeof argumentName !== 'string' || !names.includes(argumentName))
      throw new ToolInputError(
        `${describe(entry)} has no argument '${String(argumentName)}'; its arguments are ${names.join(', ') || 'none'}.`,
      );
    if (typeof argument.value !== 'string')
      throw new ToolInputError(
        `A completion of '${argumentName}' needs the value typed so far as a string, got ${typeof argument.value}.`,
      );
    // Own providers only: an argument named `toString` has no provider of Object.prototype's.
    const provider = Object.prototype.hasOwnProperty.call(entry.complete, argumentName)
      ? entry.complete[argumentName]
      : undefined;
    return { entry, argumentName, provider };
  }

  /** Listens for {@link notifyResourceUpdated}; returns the function that stops listening. */
  onResourceUpdated(listener: (uri: string) => void): () => void {
    this.updateListeners.add(listener);
    return () => this.updateListeners.delete(listener);
  }

  /** Tells every listener (served sessions subscribed to the URI) that a resource changed. */
  notifyResourceUpdated(uri: string): void {
    if (typeof uri !== 'string' || uri === '')
      throw new ToolInputError(
        `notifyResourceUpdated(uri) needs a non-empty URI, got ${JSON.stringify(uri)}.`,
      );
    for (const listener of [...this.updateListeners]) listener(uri);
  }

  private resolveReference(reference: CompletionReference): PromptEntry | ResourceTemplateEntry {
    if (reference?.type === 'ref/prompt') return this.resolvePrompt(reference.name);
    if (reference?.type === 'ref/resource') {
      const template = this.templates.get(reference.uri);
      if (!template) throw new ResourceNotFoundError({ uri: String(reference.uri) });
      return template;
    }
    throw new ToolInputError(
      `A completion reference is { type: 'ref/prompt', name } or { type: 'ref/resource', uri }; got ${JSON.stringify(reference)}.`,
    );
  }

  /** Why the first template of the URI's shape refused it (a value its expression may not hold). */
  private refusalOf(uri: string): string | undefined {
    for (const template of this.templates.values()) {
      const refusal = template.matcher.refusalOf(uri);
      if (refusal) return describeRefusal(template.uriTemplate, refusal);
    }
    return undefined;
  }

  private has(entry: CatalogEntry): boolean {
    if (entry.kind === 'resource') return this.resources.has(entry.uri);
    if (entry.kind === 'resourceTemplate') return this.templates.has(entry.uriTemplate);
    return this.prompts.has(entry.name);
  }
}

function keyOf(entry: CatalogEntry): string {
  return entry.kind === 'resource'
    ? `r:${entry.uri}`
    : entry.kind === 'resourceTemplate'
      ? `t:${entry.uriTemplate}`
      : `p:${entry.name}`;
}

/** Longest part of a refused value quoted in an error message. */
const MAX_QUOTED_VALUE_CHARS = 120;

function describeRefusal(uriTemplate: string, refusal: McpUriVariableRefusal): string {
  const quoted = JSON.stringify(
    refusal.value.length > MAX_QUOTED_VALUE_CHARS
      ? `${refusal.value.slice(0, MAX_QUOTED_VALUE_CHARS)}…`
      : refusal.value,
  );
  const rule = /^\{[?&]/.test(refusal.expression)
    ? 'a query value holds no control characters'
    : "a {x}, {/x} or {.x} value is one path segment: no '/', '\\', ',' or control characters, and not '.' or '..' (a template for paths uses {+x} and its method checks the value)";
  return `The template '${uriTemplate}' has its shape, but its ${refusal.expression} would be ${quoted}, which ${refusal.problem}: ${rule}.`;
}

function describe(entry: CatalogEntry): string {
  if (entry.kind === 'resource') return `the resource '${entry.uri}'`;
  if (entry.kind === 'resourceTemplate') return `the resource template '${entry.uriTemplate}'`;
  return `the prompt '${entry.name}'`;
}
