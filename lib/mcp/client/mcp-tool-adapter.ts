import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolDefinitionError } from '../../errors/tool-definition-error';
import { ToolInputError } from '../../errors/tool-input-error';
import { toReusableCapabilities } from '../../capabilities/capability-name';
import { raceSignal } from '../../runtime/race-signal';
import type { RunContext } from '../../runtime/run-context';
import { TelemetryEmitter } from '../../runtime/telemetry-emitter';
import type { ToolCallOptions } from '../../tools/base-tool';
import type { NativeTool } from '../../tools/native-tool';
import { scanTools } from '../../tools/registry/scan-tools';
import { buildMcpToolState } from './build-mcp-tool-state';
import type { McpToolState } from './build-mcp-tool-state';
import { formatMcpToolListing } from './format-mcp-tool-listing';
import type { MCPToolAdapterOptions, MCPToolInfo } from './mcp-adapter-options';
import { acceptMcpChanges } from './accept-mcp-changes';
import type { MCPChangeSelector } from './accept-mcp-changes';
import { McpCatalog } from './mcp-catalog';
import type { MCPRequestOptions } from './mcp-catalog';
import type { MCPPromptInfo, MCPPromptResult, MCPResourceInfo } from './mcp-catalog-definition';
import type { MCPResourceReading, MCPResourceTemplateInfo } from './mcp-catalog-definition';
import { reportMcpChange } from './report-mcp-change';
import type { MCPToolAdapterEvents } from './report-mcp-change';
import type { MCPCatalogChange, MCPToolChange } from './mcp-definition-change';
import { createMcpCatalogPins, createMcpDefinitionPins } from './mcp-definition-pins';
import type { McpDefinitionPins } from './mcp-definition-pins';
import type { McpCallFailure, McpListName, McpSession } from './mcp-session';
import { McpSessionPool, toOpeningCancelled } from './mcp-session-pool';
import { readMcpResult } from './read-mcp-result';
import { resolveMcpConfig } from './resolve-mcp-config';
import type { ResolvedMcpConfig } from './resolve-mcp-config';
import type { MCPCatalogPin, MCPToolPin } from './pin-mcp-definition';
import { isSessionExpired, toMcpCallError } from './to-mcp-call-error';
import { listMcpToolPages } from './list-mcp-tool-pages';
import { RetryOnce } from './retry-once';

const asyncDispose: unique symbol = ((Symbol as { asyncDispose?: symbol }).asyncDispose ??
  Symbol.for('Symbol.asyncDispose')) as never;

export type { MCPToolAdapterEvents } from './report-mcp-change';

type AdapterState = McpToolState;

/**
 * Any MCP server's tools as Protolink tools. Construction opens nothing; the configuration is checked at
 * first use. One session is opened on first use and reused (opened once even under concurrent first calls),
 * re-opened once after a crash or an expired HTTP session; `session: 'per-call'` opens one per call.
 * Tools come from a class generated at run time with `@Tool` metadata and scanned by `scanTools`.
 */
export class MCPToolAdapter {
  private readonly options: MCPToolAdapterOptions;
  private resolved: ResolvedMcpConfig | undefined;
  private readonly sessions = new McpSessionPool(
    () => this.config,
    (list) => this.onListChanged(list),
  );
  private state: AdapterState | undefined;
  private loading: Promise<AdapterState> | undefined;
  private generation = 0;
  private pinning: McpDefinitionPins | undefined;
  private cataloging: McpCatalog | undefined;
  private readonly events = new TelemetryEmitter<MCPToolAdapterEvents>();
  private readonly report = (change: MCPToolChange | MCPCatalogChange) =>
    reportMcpChange(this.events, change);

  constructor(options: MCPToolAdapterOptions = {}) {
    // A generator of capabilities is copied: every listing (a refresh, list_changed) reads them again.
    this.options = { ...options, capabilities: toReusableCapabilities(options.capabilities) };
    if (typeof options.onToolChanged === 'function') this.events.on('toolChanged', options.onToolChanged);
    if (typeof options.onCatalogChanged === 'function') {
      this.events.on('resourceChanged', options.onCatalogChanged);
      this.events.on('promptChanged', options.onCatalogChanged);
    }
  }

  /**
   * The server's tools (cached; `refresh` asks again). Follows `nextCursor` up to `maxListPages`; the
   * cache is dropped when the server sends `notifications/tools/list_changed`. Entries are frozen.
   *
   * @throws ToolInputError for a bad configuration; ToolRuntimeError when the server cannot be reached.
   */
  async listTools(options: { refresh?: boolean } = {}): Promise<readonly MCPToolInfo[]> {
    return (await this.load(options.refresh === true)).infos;
  }

  /** The listing entry of a tool (by remote or local name), or null. */
  async getTool(name: string): Promise<MCPToolInfo | null> {
    const infos = await this.listTools();
    return infos.find((info) => info.name === name) ?? infos.find((info) => info.localName === name) ?? null;
  }

  /**
   * Fresh NativeTools for every usable tool: tags `['mcp']`, the server's schemas unchanged, hints and the
   * connection (without secrets) in `metadata`. Tools with unusable definitions are left out; see `problems`.
   */
  async getTools(): Promise<NativeTool[]> {
    return scanTools(new (await this.load(false)).generated());
  }

  /**
   * One tool as a BaseTool (a NativeTool), by remote or local name.
   *
   * @throws ToolInputError `Tool '<name>' not found on MCP server.`; ToolDefinitionError for an unusable one.
   */
  async wrapTool(name: string): Promise<NativeTool> {
    const state = await this.load(false);
    const remote = state.listing.entries.has(name) ? name : state.listing.toRemote.get(name);
    if (remote !== undefined) return state.tools.get(remote) as NativeTool;
    const problem = state.listing.problems.get(name) ?? this.pins.refusalOf(name);
    if (problem) throw problem;
    throw new ToolInputError(`Tool '${name}' not found on MCP server.`, { toolName: name });
  }

  /** An async function calling the tool with validated arguments; the name is looked up when it runs. */
  getCallable(name: string): (args?: Record<string, unknown>, options?: ToolCallOptions) => Promise<unknown> {
    return async (args, options) => (await this.wrapTool(name)).call(args, options);
  }

  /** Writes the seed's human listing to stdout and returns it. */
  async printTools(): Promise<string> {
    const text = formatMcpToolListing(await this.listTools());
    process.stdout.write(text);
    return text;
  }

  /** Tools of the last listing that cannot be used, with why (bad schema, empty or duplicate name). */
  get problems(): readonly ToolDefinitionError[] {
    return [...(this.state?.listing.problems.values() ?? [])];
  }

  /**
   * The server's resources (cached; `refresh` asks again), every page up to `maxListPages`, each checked
   * against the MCP schema and the size limits of tool definitions, and pinned like tools.
   *
   * @throws ToolInputError when the server did not declare the `resources` capability.
   */
  async listResources(options: { refresh?: boolean } = {}): Promise<readonly MCPResourceInfo[]> {
    return this.catalog.list('resource', options.refresh === true);
  }

  /** The server's resource templates (RFC 6570), checked, pinned and cached like resources. */
  async listResourceTemplates(
    options: { refresh?: boolean } = {},
  ): Promise<readonly MCPResourceTemplateInfo[]> {
    return this.catalog.list('resourceTemplate', options.refresh === true);
  }

  /**
   * Reads a resource the server lists, or a URI of one of its listed templates; any other URI is refused
   * before anything is sent. Text is cut at `maxResultChars`, blobs bounded by `maxMessageBytes`. Untrusted.
   *
   * @throws ToolInputError for a URI neither listed nor templated, or a server without `resources`;
   * ToolDefinitionError when its definition changed and waits for {@link acceptChanges}; ToolRuntimeError.
   */
  async readResource(uri: string, options?: MCPRequestOptions): Promise<MCPResourceReading> {
    return this.catalog.readResource(uri, options);
  }

  /** The server's prompts (cached; `refresh` asks again), checked, pinned and cached like resources. */
  async listPrompts(options: { refresh?: boolean } = {}): Promise<readonly MCPPromptInfo[]> {
    return this.catalog.list('prompt', options.refresh === true);
  }

  /**
   * A listed prompt's messages (untrusted), its `args` checked against the arguments it declared before
   * anything is sent: strings only, required ones present, no others.
   *
   * @throws ToolValidationError for bad arguments; ToolInputError for an unknown prompt or a server without
   * `prompts`; ToolDefinitionError when its definition changed and waits for {@link acceptChanges}.
   */
  async getPrompt(
    name: string,
    args?: Record<string, string> | null,
    options?: MCPRequestOptions,
  ): Promise<MCPPromptResult> {
    return this.catalog.getPrompt(name, args, options);
  }

  /** Resources, templates and prompts of the last listings that cannot be used, with why. */
  get catalogProblems(): readonly ToolDefinitionError[] {
    return this.cataloging?.problems ?? [];
  }

  /** Changed resources, templates and prompts refused until {@link acceptChanges}. */
  get pendingCatalogChanges(): readonly MCPCatalogChange[] {
    return this.cataloging?.pins.changes ?? [];
  }

  /**
   * Subscribes to the adapter's events: `toolChanged` fires once per new definition of a pinned tool, with
   * which fields changed and one readable line per change. A listener that throws never breaks a listing.
   */
  on<Name extends keyof MCPToolAdapterEvents>(
    name: Name,
    listener: (event: MCPToolAdapterEvents[Name]) => void,
  ): void {
    this.events.on(name, listener);
  }

  /** Removes a listener added with {@link on}; returns whether it was subscribed. */
  off<Name extends keyof MCPToolAdapterEvents>(
    name: Name,
    listener: (event: MCPToolAdapterEvents[Name]) => void,
  ): boolean {
    return this.events.off(name, listener);
  }

  /** Changed tools refused until {@link acceptChanges} (`onDefinitionChange: 'refuse'`, the default). */
  get pendingChanges(): readonly MCPToolChange[] {
    return this.pins.changes;
  }

  /**
   * Trusts the new definitions behind changed local names (by remote or local name; every pending one when
   * `names` is absent): they are pinned, and the next listing builds them. Returns the remote names accepted.
   * Tools built before for another remote name under the same local name stay refused: get the tools again.
   * Resources (by URI), templates (by URI template) and prompts (by name) are accepted the same way; a name
   * pending for several kinds needs a `{ kind, name }` selector.
   *
   * @throws ToolInputError when a name has no pending change (the message lists the pending ones).
   */
  acceptChanges(names?: string | readonly (string | MCPChangeSelector)[]): string[] {
    const list = typeof names === 'string' ? [names] : names;
    const accepted = acceptMcpChanges(list, this.pins, this.catalog.pins, this.config.serverName);
    if (accepted.tools.length) this.invalidate();
    if (accepted.catalog.length) this.catalog.invalidate('all');
    return [...accepted.tools, ...accepted.catalog.map((change) => change.name)];
  }

  /**
   * The pins (each local name seen, the remote name and trusted definition it is bound to, and its sha256), as
   * plain JSON without secrets; pass them back as the `pins` option (or keep them with the agent) so a
   * restart does not re-trust.
   */
  exportPins(): Array<MCPToolPin | MCPCatalogPin> {
    return [...this.pins.export(), ...this.catalog.pins.export()];
  }

  /** Ends the session (a stdio server is stopped). A later call opens a new one. */
  async close(): Promise<void> {
    await this.sessions.close();
  }

  /** `await using adapter = new MCPToolAdapter(…)` closes it. */
  async [asyncDispose](): Promise<void> {
    await this.close();
  }

  private get config(): ResolvedMcpConfig {
    return (this.resolved ??= resolveMcpConfig(this.options));
  }

  private get pins(): McpDefinitionPins {
    return (this.pinning ??= createMcpDefinitionPins(this.options, this.config, this.report));
  }

  private get catalog(): McpCatalog {
    return (this.cataloging ??= new McpCatalog({
      config: this.config,
      // After the tools' pins, which check onDefinitionChange.
      pins: this.pins && createMcpCatalogPins(this.options, this.config.serverName, this.report),
      run: (work, signal) => this.sessions.run(work, signal && { signal }),
      retryOnce: (error) => new RetryOnce(error),
    }));
  }

  private onListChanged(list: McpListName): void {
    if (list === 'tools') this.invalidate();
    else this.cataloging?.invalidate(list);
  }

  private async load(refresh: boolean): Promise<AdapterState> {
    if (!refresh && this.state) return this.state;
    if (!refresh && this.loading) return this.loading;
    const generation = ++this.generation;
    const loading = this.fetchState().then((state) => {
      if (generation === this.generation) this.state = state;
      return state;
    });
    this.loading = loading;
    try {
      return await loading;
    } finally {
      if (this.loading === loading) this.loading = undefined;
    }
  }

  private async fetchState(): Promise<AdapterState> {
    const config = this.config;
    const wireTools = await this.sessions.run((session) => listMcpToolPages(session, config));
    return buildMcpToolState(
      wireTools,
      config,
      this.options.capabilities,
      this.pins,
      (remote, args, context) => this.callRemote(remote, args, context),
    );
  }

  private async callRemote(
    remoteName: string,
    args: Record<string, unknown>,
    run: RunContext | undefined,
  ): Promise<unknown> {
    const config = this.config;
    // Built on failure only; the run's signal too (an AbortSignal costs several µs on Node 20).
    const describe = (stderr?: string) => ({
      toolName: remoteName,
      serverName: config.serverName,
      timeoutMs: config.timeoutMs,
      signal: run?.signal,
      stderr,
    });
    if (run?.canceled) {
      const signal = run.signal;
      throw toMcpCallError(
        { error: signal.reason, fatal: undefined, sessionClosed: false, notSent: true },
        describe(),
      );
    }
    // A listing after notifications/tools/list_changed happens before the call, so a changed tool is
    // refused even through NativeTools built before the change.
    // Loaded already (the common case): no promise to race.
    if (!this.state) await raceSignal(this.load(false), run?.signal, toOpeningCancelled);
    const refusal = this.pins.refusalOfCall(remoteName);
    if (refusal) throw refusal;
    const annotations = this.state?.listing.entries.get(remoteName)?.definition.annotations ?? {};
    const safeToRepeat = annotations.readOnlyHint === true || annotations.idempotentHint === true;
    const result = await this.sessions.run(async (session) => {
      try {
        return await session.callTool(remoteName, args, {
          context: run,
          task: this.runsAsTask(remoteName, session),
        });
      } catch (failure) {
        const typed = failure as McpCallFailure;
        if (
          isSessionExpired(typed, config.transport) ||
          typed.notSent ||
          (typed.sessionClosed && safeToRepeat && !run?.canceled && !typed.fatal)
        ) {
          session.markDead();
          throw new RetryOnce(toMcpCallError(typed, describe(session.stderrTail())));
        }
        if (typed.sessionClosed) session.markDead();
        throw toMcpCallError(typed, describe(session.stderrTail()));
      }
    }, run);
    return readMcpResult(result as CallToolResult, {
      toolName: remoteName,
      serverName: config.serverName,
      maxResultChars: config.maxResultChars,
      maxBinaryBytes: config.maxMessageBytes,
    });
  }

  /** Whether a remote tool is called as a task: it requires one, or allows one and `runAsTask` is `supported`. */
  private runsAsTask(remoteName: string, session: McpSession): boolean {
    const support = this.state?.listing.entries.get(remoteName)?.definition.taskSupport;
    if (support === undefined || !session.serverCapabilities.tasks?.requests?.tools?.call) return false;
    return support === 'required' || this.config.runAsTask === 'supported';
  }

  private invalidate(): void {
    this.state = undefined;
    this.generation += 1;
  }
}
