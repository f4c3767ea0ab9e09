import type { CapabilityList } from '../capabilities/capability-name';
import type { CompletionProviders } from './completion-provider';

/** Options of `@Resource`: a resource with a fixed URI. */
export interface ResourceOptions {
  /** The resource's URI, with a scheme (`config://app`, `file:///reports/latest.md`). */
  uri: string;
  /** A programmatic name (default: the method's name). */
  name?: string;
  /** A human-readable title. */
  title?: string;
  /** What the resource holds. */
  description?: string;
  /** Its MIME type (`text/markdown`), used for the contents when the method returns text or bytes. */
  mimeType?: string;
  /** Capabilities a read needs, checked by the agent's policy like a tool's (any iterable, not a string). */
  capabilities?: CapabilityList;
}

/** Options of `@ResourceTemplate`: resources whose URIs follow an RFC 6570 template. */
export interface ResourceTemplateOptions {
  /**
   * An RFC 6570 level 1–2 template (`notes://{folder}/{id}`, `files://{+path}`); every variable is a named
   * `@Param` of the method, validated and coerced like a tool argument.
   */
  uriTemplate: string;
  /** A programmatic name (default: the method's name). */
  name?: string;
  /** A human-readable title. */
  title?: string;
  /** What the resources hold. */
  description?: string;
  /** Their MIME type, used for the contents when the method returns text or bytes. */
  mimeType?: string;
  /** Capabilities a read needs, checked by the agent's policy like a tool's. */
  capabilities?: CapabilityList;
  /** Completion providers by variable name (served as `completion/complete`). */
  complete?: CompletionProviders;
}
