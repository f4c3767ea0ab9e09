import type { NativeTool } from '../tools/native-tool';
import type { McpUriTemplateMatcher } from './match-mcp-uri-template';
import type { CompletionProviders } from './completion-provider';

/** What every catalog entry has: its names and the NativeTool that validates its arguments and runs it. */
interface CatalogEntryBase {
  /** The programmatic name (a prompt's name; a resource's `name`, else its method's name). */
  readonly name: string;
  /** A human-readable title. */
  readonly title: string | undefined;
  /** What it is. */
  readonly description: string | undefined;
  /** Capabilities the policy checks. */
  readonly capabilities: readonly string[];
  /**
   * The method as a NativeTool: its `@Param`s are the input schema (validation and coercion of template
   * variables and prompt arguments), and its action is the one the policy sees.
   */
  readonly tool: NativeTool;
  /** Completion providers by variable or argument name. */
  readonly complete: CompletionProviders;
}

/** A `@Resource`: one fixed URI. */
export interface ResourceEntry extends CatalogEntryBase {
  readonly kind: 'resource';
  readonly uri: string;
  readonly mimeType: string | undefined;
}

/** A `@ResourceTemplate`: the URIs of an RFC 6570 template. */
export interface ResourceTemplateEntry extends CatalogEntryBase {
  readonly kind: 'resourceTemplate';
  readonly uriTemplate: string;
  readonly mimeType: string | undefined;
  /** Reads the variables of a URI of the template. */
  readonly matcher: McpUriTemplateMatcher;
}

/** One argument of a prompt, as listed to clients. */
export interface PromptArgumentEntry {
  readonly name: string;
  readonly description: string | undefined;
  readonly required: boolean;
}

/** A `@Prompt`. */
export interface PromptEntry extends CatalogEntryBase {
  readonly kind: 'prompt';
  /** Its arguments, from the input schema's properties. */
  readonly arguments: readonly PromptArgumentEntry[];
}

/** Any catalog entry. */
export type CatalogEntry = ResourceEntry | ResourceTemplateEntry | PromptEntry;
