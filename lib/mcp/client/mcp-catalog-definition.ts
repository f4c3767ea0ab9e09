import type { ToolContentPart } from '../../tools/tool-content-part';

/** The kinds of a server's offerings besides tools: each is listed, pinned and checked on its own. */
export type MCPCatalogKind = 'resource' | 'resourceTemplate' | 'prompt';

/** Hints the server gives about a resource or template (`audience`, `priority`, `lastModified`); untrusted. */
export type MCPResourceAnnotations = Readonly<Record<string, unknown>>;

/** One entry of `adapter.listResources()`: a resource the server lists, as it described it (untrusted text). */
export interface MCPResourceInfo {
  /** The resource's URI: what `adapter.readResource(uri)` takes. */
  readonly uri: string;
  /** Its programmatic name. */
  readonly name: string;
  /** A human-readable title, when the server gave one. */
  readonly title?: string;
  /** What it is (`''` when absent). */
  readonly description: string;
  /** Its MIME type, when known. */
  readonly mimeType?: string;
  /** Its size in bytes, when the server knows it (not pinned: content may change). */
  readonly size?: number;
  /** The server's hints (`audience`, `priority`, `lastModified`). */
  readonly annotations: MCPResourceAnnotations;
}

/** One entry of `adapter.listResourceTemplates()`: a family of URIs (RFC 6570) the server can read. */
export interface MCPResourceTemplateInfo {
  /** The URI template, e.g. `file:///logs/{date}.txt`. */
  readonly uriTemplate: string;
  /** Its programmatic name. */
  readonly name: string;
  /** A human-readable title, when the server gave one. */
  readonly title?: string;
  /** What the resources are (`''` when absent). */
  readonly description: string;
  /** The MIME type of every resource of the template, when they share one. */
  readonly mimeType?: string;
  /** The server's hints. */
  readonly annotations: MCPResourceAnnotations;
}

/** One argument a prompt declares. Prompt arguments are strings. */
export interface MCPPromptArgument {
  /** Its name, as `getPrompt(name, args)` takes it. */
  readonly name: string;
  /** What to pass (`''` when absent). */
  readonly description: string;
  /** Whether `getPrompt` must be given it. */
  readonly required: boolean;
}

/** One entry of `adapter.listPrompts()`: a prompt template the server offers (untrusted text). */
export interface MCPPromptInfo {
  /** Its name, as `getPrompt(name)` takes it. */
  readonly name: string;
  /** A human-readable title, when the server gave one. */
  readonly title?: string;
  /** What it is for (`''` when absent). */
  readonly description: string;
  /** The arguments it takes, in the server's order. */
  readonly arguments: readonly MCPPromptArgument[];
}

/** The definition of an offering of any kind, as pinned and as reported in changes. */
export type MCPCatalogDefinition = MCPResourceInfo | MCPResourceTemplateInfo | MCPPromptInfo;

/** One item of a resource read: text or base64 bytes, with the URI it came from (a read may return several). */
export type MCPResourceContents =
  | { readonly uri: string; readonly mimeType?: string; readonly text: string }
  | { readonly uri: string; readonly mimeType?: string; readonly blob: string };

/** What `adapter.readResource(uri)` returns. */
export interface MCPResourceReading {
  /** The URI that was read. */
  readonly uri: string;
  /** The items the server returned (untrusted content), text cut to `maxResultChars` in all. */
  readonly contents: readonly MCPResourceContents[];
  /** Whether some text was cut (the cut text ends with a `… [cut: N more characters]` marker). */
  readonly truncated: boolean;
}

/** A content part of a prompt message: the same shapes as a tool's rich result (`ToolContentPart`). */
export type MCPPromptContent = ToolContentPart;

/** One message of a prompt, to hand to a model as a turn of the conversation. */
export interface MCPPromptMessage {
  /** Who says it. */
  readonly role: 'user' | 'assistant';
  /** What is said: text, an image, audio, an embedded resource or a resource link. */
  readonly content: MCPPromptContent;
}

/** What `adapter.getPrompt(name, args)` returns. */
export interface MCPPromptResult {
  /** The prompt's name. */
  readonly name: string;
  /** The description the server sent with the messages, when it sent one. */
  readonly description?: string;
  /** The messages (untrusted content), text cut to `maxResultChars` in all. */
  readonly messages: readonly MCPPromptMessage[];
  /** Whether some text was cut (the cut text ends with a `… [cut: N more characters]` marker). */
  readonly truncated: boolean;
}
