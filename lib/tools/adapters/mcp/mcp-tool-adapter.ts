import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { MCPSignInRequiredError } from '../../../errors/mcp-sign-in-required-error';
import { ProtolinkError } from '../../../errors/protolink-error';
import { ToolCancelledError } from '../../../errors/tool-cancelled-error';
import type { ToolDefinitionError } from '../../../errors/tool-definition-error';
import { ToolInputError } from '../../../errors/tool-input-error';
import { ToolRuntimeError } from '../../../errors/tool-runtime-error';
import { toReusableCapabilities } from '../../../runtime/capability-name';
import { raceSignal } from '../../../runtime/race-signal';
import type { RunContext } from '../../../runtime/run-context';
import { TelemetryEmitter } from '../../../runtime/telemetry-emitter';
import type { ToolCallOptions } from '../../base-tool';
import type { NativeTool } from '../../native-tool';
import { scanTools } from '../../registry/scan-tools';
import { buildMcpListing } from './build-mcp-listing';
import type { McpListing } from './build-mcp-listing';
import { buildMcpToolClass } from './build-mcp-tool-class';
import { formatMcpToolListing, toInputTypes } from './format-mcp-tool-listing';
import type { MCPToolAdapterOptions, MCPToolInfo } from './mcp-adapter-options';
import { createMcpDefinitionPins } from './mcp-definition-pins';
import type { McpDefinitionPins } from './mcp-definition-pins';
import type { MCPToolChange } from './mcp-tool-change';
import { describeError, McpSession } from './mcp-session';
import type { McpCallFailure, McpToolPage } from './mcp-session';
import { readMcpResult } from './read-mcp-result';
import { resolveMcpConfig, summarizeMcpConfig } from './resolve-mcp-config';
import type { ResolvedMcpConfig } from './resolve-mcp-config';
import type { MCPToolPin } from './pin-mcp-tool-definition';
import { isSessionExpired, toMcpCallError } from './to-mcp-call-error';

const asyncDispose: unique symbol = ((Symbol as { asyncDispose?: symbol }).asyncDispose ??
  Symbol.for('Symbol.asyncDispose')) as never;

/** The events of an {@link MCPToolAdapter}. */
export interface MCPToolAdapterEvents {
  /** A pinned tool's definition changed (see `onDefinitionChange`). */
  toolChanged: MCPToolChange;
}

interface AdapterState {
  listing: McpListing;
  infos: readonly MCPToolInfo[];
  generated: new () => object;
  tools: ReadonlyMap<string, NativeTool>;
}

/**
 * Any MCP server's tools as Protolink tools. Construction opens nothing; the configuration is checked at
 * first use. One session is opened on first use and reused (opened once even under concurrent first calls),
 * re-opened once after a crash or an expired HTTP session; `session: 'per-call'` opens one per call.
 * Tools come from a class generated at run time with `@Tool` metadata and scanned by `scanTools`.
 */
export class MCPToolAdapter {
  private readonly options: MCPToolAdapterOptions;
  private resolved: ResolvedMcpConfig | undefined;
  private session: McpSession | undefined;
  private opening: Promise<McpSession> | undefined;
  private state: AdapterState | undefined;
  private loading: Promise<AdapterState> | undefined;
  private generation = 0;
  private pinning: McpDefinitionPins | undefined;
  private readonly events = new TelemetryEmitter<MCPToolAdapterEvents>();

  constructor(options: MCPToolAdapterOptions = {}) {
    // A generator of capabilities is copied: every listing (a refresh, list_changed) reads them again.
    this.options = { ...options, capabilities: toReusableCapabilities(options.capabilities) };
    if (typeof options.onToolChanged === 'function') this.events.on('toolChanged', options.onToolChanged);
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
   *
   * @throws ToolInputError when a name has no pending change (the message lists the pending ones).
   */
  acceptChanges(names?: string | readonly string[]): string[] {
    const accepted = this.pins.accept(typeof names === 'string' ? [names] : names);
    if (accepted.length) this.invalidate();
    return accepted;
  }

  /**
   * The pins (each local name seen, the remote name and trusted definition it is bound to, and its sha256), as
   * plain JSON without secrets; pass them back as the `pins` option (or keep them with the agent) so a
   * restart does not re-trust.
   */
  exportPins(): MCPToolPin[] {
    return this.pins.export();
  }

  /** Ends the session (a stdio server is stopped). A later call opens a new one. */
  async close(): Promise<void> {
    const session = this.session ?? (await this.opening?.catch(() => undefined));
    this.session = undefined;
    this.opening = undefined;
    await session?.close();
  }

  /** `await using adapter = new MCPToolAdapter(…)` closes it. */
  async [asyncDispose](): Promise<void> {
    await this.close();
  }

  private get config(): ResolvedMcpConfig {
    return (this.resolved ??= resolveMcpConfig(this.options));
  }

  private get pins(): McpDefinitionPins {
    return (this.pinning ??= createMcpDefinitionPins(this.options, this.config, (change) =>
      this.reportChange(change),
    ));
  }

  private reportChange(change: MCPToolChange): void {
    if (change.action === 'warned') {
      process.emitWarning(
        `MCP tool '${change.name}' on server '${change.serverName}' changed its definition (${change.fields.join(', ')}); the new definition is used. ${change.details.join('; ')}`,
        { code: 'PROTOLINK_MCP_TOOL_CHANGED' },
      );
    }
    this.events.emit('toolChanged', change);
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
    const wireTools = await this.withSession(async (session) => {
      const all: unknown[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < config.maxListPages; page += 1) {
        const result = await this.listPage(session, cursor);
        all.push(...result.tools);
        cursor = result.nextCursor;
        if (cursor === undefined) return all;
      }
      throw new ToolRuntimeError(
        `MCP server '${config.serverName}' listed more than ${config.maxListPages} pages of tools; raise maxListPages if that is expected.`,
        { provider: config.serverName },
      );
    });
    const { capabilities } = this.options;
    const bound = this.pins.boundRemoteNames();
    const listing = this.pins.apply(
      buildMcpListing(wireTools, config, summarizeMcpConfig(config), capabilities, bound),
    );
    const generated = buildMcpToolClass(
      `MCPTools_${config.serverName.replace(/[^A-Za-z0-9_]/g, '_')}`,
      [...listing.entries.values()],
      (remote, args, context) => this.callRemote(remote, args, context),
    );
    const tools = new Map<string, NativeTool>();
    const scanned = scanTools(new generated());
    for (const entry of listing.entries.values())
      tools.set(entry.definition.name, scanned.find((tool) => tool.name === entry.localName) as NativeTool);
    const infos = listing.definitions
      .filter((definition) => listing.entries.has(definition.name))
      .map((definition) => {
        const tool = tools.get(definition.name) as NativeTool;
        return Object.freeze({
          ...definition,
          localName: tool.name,
          inputTypes: Object.freeze(toInputTypes(definition.inputSchema)),
          callable: (args?: Record<string, unknown>) => tool.call(args),
        });
      });
    return { listing, infos: Object.freeze(infos), generated, tools };
  }

  private async listPage(session: McpSession, cursor: string | undefined): Promise<McpToolPage> {
    try {
      return await session.hold(() => session.listToolsPage(cursor));
    } catch (error) {
      if (error instanceof MCPSignInRequiredError) throw error;
      const notSent = error instanceof Error && error.message === 'Not connected';
      const failure: McpCallFailure = { error, fatal: undefined, sessionClosed: !session.alive, notSent };
      const listError = new ToolRuntimeError(
        `Could not list the tools of MCP server '${this.config.serverName}': ${describeError(error)}`,
        { cause: error, provider: this.config.serverName, retryable: true },
      );
      // Listing has no effects, so a list cut short by a dead or forgotten session is simply asked again.
      if (isSessionExpired(failure, this.config.transport) || notSent || failure.sessionClosed) {
        session.markDead();
        throw new RetryOnce(listError);
      }
      throw listError;
    }
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
    const result = await this.withSession(async (session) => {
      try {
        return await session.callTool(remoteName, args, { context: run });
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

  private async withSession<T>(
    work: (session: McpSession) => Promise<T>,
    run?: RunContext,
    retried = false,
  ): Promise<T> {
    const perCall = this.config.session === 'per-call';
    let session: McpSession;
    if (perCall) session = await this.openPerCall(run?.signal);
    else if (this.session?.alive) session = this.session;
    else session = await raceSignal(this.ensureSession(), run?.signal, toOpeningCancelled);
    try {
      return await work(session);
    } catch (error) {
      if (error instanceof RetryOnce) {
        if (!retried) return this.withSession(work, run, true);
        throw error.finalError;
      }
      throw error;
    } finally {
      if (perCall) await session.close();
    }
  }

  /** Opens the session of one call; one that opens after the caller gave up is closed at once. */
  private async openPerCall(signal: AbortSignal | undefined): Promise<McpSession> {
    const opening = McpSession.open(this.config, () => this.invalidate());
    try {
      return await raceSignal(opening, signal, toOpeningCancelled);
    } catch (error) {
      void opening.then(
        (late) => late.close(),
        () => undefined,
      );
      throw error;
    }
  }

  private async ensureSession(): Promise<McpSession> {
    if (this.session?.alive) return this.session;
    if (this.opening) return this.opening;
    const stale = this.session;
    this.session = undefined;
    if (stale) void stale.close();
    const opening = McpSession.open(this.config, () => this.invalidate());
    this.opening = opening;
    try {
      this.session = await opening;
      return this.session;
    } finally {
      if (this.opening === opening) this.opening = undefined;
    }
  }

  private invalidate(): void {
    this.state = undefined;
    this.generation += 1;
  }
}

/** Internal: the call never reached a live server (or may be repeated safely); try once on a new session. */
class RetryOnce extends ProtolinkError {
  constructor(readonly finalError: ProtolinkError) {
    super(finalError.message, { cause: finalError });
  }
}

function toOpeningCancelled(reason: unknown): ToolCancelledError {
  return reason instanceof ToolCancelledError
    ? reason
    : new ToolCancelledError('The MCP call was cancelled while the session was opening.', {
        reason: String(reason),
      });
}
