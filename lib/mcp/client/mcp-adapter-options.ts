import type { CapabilityList } from '../../capabilities/capability-name';
import type { MCPAuth } from './auth/mcp-auth-options';
import type { MCPCatalogKind } from './mcp-catalog-definition';
import type { MCPCatalogChange, MCPDefinitionChangeMode, MCPToolChange } from './mcp-definition-change';
import type { MCPToolDefinition } from './mcp-tool-definition';
import type {
  MCPElicitationHandler,
  MCPSamplingHandler,
} from './server-requests/mcp-server-request-handlers';

/** The transports an {@link MCPToolAdapter} speaks. */
export type MCPTransportKind = 'stdio' | 'sse' | 'http';

/** Options of {@link MCPToolAdapter}; checked at first use, never at construction. */
export interface MCPToolAdapterOptions {
  /** `stdio` (a local subprocess), `sse` (legacy HTTP+SSE) or `http` (streamable HTTP). Default `stdio`. */
  transport?: MCPTransportKind | string;
  /** stdio: the executable to run (no shell). */
  command?: string;
  /** stdio: its arguments, passed unchanged. */
  args?: string[] | null;
  /** stdio: extra environment variables; the child gets only the SDK's minimal environment plus these. */
  env?: Record<string, string> | null;
  /** stdio: the working directory of the child. */
  cwd?: string;
  /** sse/http: the server URL. */
  url?: string;
  /** sse/http: headers sent with every request (e.g. authorization); never stored in tool metadata. */
  headers?: Record<string, string> | null;
  /** Bound on one call, in ms, reset by progress notifications (default 30,000; the SDK's is 60,000). */
  timeoutMs?: number;
  /** Bound on one call even when progress keeps resetting `timeoutMs` (default 4 × timeoutMs). */
  maxTotalTimeoutMs?: number;
  /**
   * Which remote tools are called as MCP tasks (created, polled at the server's `pollInterval`, cancelled with
   * `tasks/cancel`): `required` (default) those whose `taskSupport` is `required`; `supported` also the
   * `optional` ones. The result is the same as a plain call's.
   */
  runAsTask?: 'required' | 'supported';
  /** Bound on opening a session (spawn or connect, then initialize), in ms (default 10,000). */
  connectTimeoutMs?: number;
  /** `persistent` (default): one session reused by every call; `per-call`: open, call, close (the seed). */
  session?: 'persistent' | 'per-call';
  /** A label for error messages and metadata (default: derived from the command or the URL host). */
  serverName?: string;
  /** Prepended to every local tool name (`github_` + `create_issue`), e.g. to keep servers apart. */
  namePrefix?: string;
  /**
   * Capabilities of each tool: any iterable of names for all (an array, a `Set`), or a function of the
   * definition returning one (e.g. approval for writes).
   */
  capabilities?: CapabilityList | ((definition: MCPToolDefinition) => CapabilityList | null | undefined);
  /** Largest text result kept, in characters; longer text is cut with a marker (default 1,000,000). */
  maxResultChars?: number;
  /** Largest message accepted from the server, in bytes; larger ones fail the call (default 16 MiB). */
  maxMessageBytes?: number;
  /**
   * Deepest nesting accepted in a message from the server (default 1,000 levels): a deeper answer rejects its
   * call, read or get at once with a ToolRuntimeError. Listings are bounded per entry by `maxSchemaDepth`.
   */
  maxMessageDepth?: number;
  /** Most pages of one listing followed: tools, resources, resource templates, prompts (default 100). */
  maxListPages?: number;
  /** Largest server input schema accepted, in JSON characters (default 262,144). */
  maxSchemaChars?: number;
  /** Deepest server input schema accepted (default 64). */
  maxSchemaDepth?: number;
  /**
   * What happens when the definition behind a local name (remote name, title, description, schemas,
   * annotations) differs from the one pinned when that local name was first listed, including another remote
   * tool now listed under the same local name: `refuse` (default: the tool is not built and its calls are
   * refused until `adapter.acceptChanges(names)`), `warn` (the new definition is used and pinned, and a
   * process warning is written) or `accept` (used and pinned silently). Listeners hear every change. The
   * same holds for resources, resource templates and prompts (their description, arguments, MIME type…).
   */
  onDefinitionChange?: MCPDefinitionChangeMode;
  /** Called with each definition change (same as `adapter.on('toolChanged', listener)`). */
  onToolChanged?: (change: MCPToolChange) => void;
  /**
   * Called with each definition change of a resource, resource template or prompt (same as
   * `adapter.on('resourceChanged', listener)` and `adapter.on('promptChanged', listener)`).
   */
  onCatalogChanged?: (change: MCPCatalogChange) => void;
  /**
   * Pins saved earlier (`adapter.exportPins()`, or an agent's `mcpServers[].pins`), so a restart does not
   * trust changed definitions again. Checked at first use.
   */
  pins?: readonly MCPToolPinData[] | null;
  /**
   * sse/http: sign-in to a protected server (OAuth 2.1 through the MCP SDK): our options
   * (`onAuthorizationUrl`, `tokenStore`, `clientId`…, or `grant: 'client_credentials'`) or an SDK
   * `OAuthClientProvider` as is. Tokens and secrets never reach errors, metadata or serialized agents.
   */
  auth?: MCPAuth | null;
  /** Answers the server's `elicitation/create`; the `elicitation` capability is declared only with it. */
  elicitationHandler?: MCPElicitationHandler;
  /** Answers the server's `sampling/createMessage`; the `sampling` capability is declared only with it. */
  samplingHandler?: MCPSamplingHandler;
}

/** One entry of {@link MCPToolAdapter.listTools}: the seed's fields plus the output schema and hints. */
export interface MCPToolInfo extends MCPToolDefinition {
  /** The local name tools get (the prefix applied, mapped when providers cannot accept the remote name). */
  readonly localName: string;
  /** A shallow map from top-level properties to JSON Schema type names (`any` when unknown), for display. */
  readonly inputTypes: Readonly<Record<string, string>>;
  /** Calls the tool: validated arguments, persistent session. */
  readonly callable: (args?: Record<string, unknown>) => Promise<unknown>;
}

/**
 * A saved pin as plain data: an entry of `adapter.exportPins()` (an {@link MCPToolPin}) or of an agent's
 * `mcpServers[].pins` after `toDict()`/YAML. Checked at first use (its definition must hash to `sha256`, and
 * no two pins may bind one local name).
 */
export interface MCPToolPinData {
  /**
   * What is pinned: absent or `tool` for a tool (pins saved before resources and prompts were pinned have no
   * kind), `resource`, `resourceTemplate` or `prompt`.
   */
  readonly kind?: 'tool' | MCPCatalogKind;
  /** The tool's name on the server (a resource's URI, a template's URI template, a prompt's name). */
  readonly name: string;
  /**
   * The local name the pin binds; it must be the one the adapter gives `name` (with its `namePrefix`). Absent
   * in pins saved before pins were bound to local names: then it is derived from `name`.
   */
  readonly localName?: string;
  /** sha256 (hex) of the canonical JSON of the pinned definition. */
  readonly sha256: string;
  /** The pinned definition. */
  readonly definition: object;
}
