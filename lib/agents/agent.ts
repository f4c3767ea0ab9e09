import { ToolInputError } from '../errors/tool-input-error';
import type { LlmMessage } from '../llm/llm';
import { runToolLoop } from '../llm/run-tool-loop';
import type { RunToolLoopOptions, ToolLoopResult } from '../llm/tool-loop-types';
import type { ApprovalHandler } from '../policy/approval-handler';
import type { Policy } from '../policy/policy';
import type { PolicyDecision } from '../policy/policy-decision';
import type { AgentServerHandle, AgentServerOptions } from './agent-server-options';
import { assertKnownOptions } from '../runtime/assert-known-options';
import {
  loadAgentYaml,
  loadReadAgentYamlFile,
  loadRestoreAgent,
  loadSerializeAgent,
} from './agent-lazy-modules';
import { RunContext } from '../runtime/run-context';
import { TelemetryEmitter } from '../runtime/telemetry-emitter';
import type { TelemetryListener } from '../runtime/telemetry-emitter';
import { startToolTask } from '../tasks/start-tool-task';
import type { StartToolOptions } from '../tasks/start-tool-task';
import { TaskRunner } from '../tasks/task-runner';
import type { TaskStore } from '../tasks/task-store';
import type { ToolTask } from '../tasks/tool-task';
import type { BaseTool } from '../tools/base-tool';
import { ToolRegistry } from '../tools/registry/tool-registry';
import type { ToolFunction } from '../tools/tool-types';
import type { ElicitationHandler, SamplingHandler } from './tool-interaction-handlers';
import type { AgentEventMap, AgentEventName } from './agent-events';
import type { AgentOptions, AgentTransport, SkillsMode } from './agent-options';
import type { AgentCard } from './agent-card';
import { AgentServing } from './agent-serving';
import { AgentSkill } from './agent-skill';
import { createToolCallHost, readAgentOptions } from './read-agent-options';
import { AGENT_ADD_TOOL_OPTIONS, registerToolFunction } from './agent-tool-options';
import type { AgentAddToolOptions, AgentToolOptions } from './agent-tool-options';
import { checkToolPolicy } from './check-policy';
import { collectInitialTools } from './collect-initial-tools';
import { executeToolCall } from './execute-tool-call';
import type { ToolCallHost } from './execute-tool-call';
import { ReadonlyToolMap } from './readonly-tool-map';
import type { AgentDict, McpServerDict } from './serialization/agent-dict';
import type { AgentRestoreOverrides } from './serialization/restore-agent';
import type { GetPromptResult } from '../prompts/prompt-messages';
import type { CatalogEntry } from '../resources/catalog-entry';
import { CatalogRegistry } from '../resources/catalog-registry';
import type { ReadResourceResult } from '../resources/resource-contents';
import type { CompletionReference, CompletionResult } from '../resources/catalog-registry';
import {
  authorizeCatalogResource,
  getCatalogPrompt,
  readCatalogResource,
  toCatalogSkill,
} from './read-catalog-entry';
import { completeCatalogEntry } from './complete-catalog-entry';
import type { CompleteOptions } from './complete-catalog-entry';

/**
 * Holds tools, advertises them as skills, and is the controlled path for calling them: every call is
 * validated, authorized by the policy and approver, counted against the run's budget, cancellable, and
 * observable (events and OpenTelemetry spans).
 */
export class Agent {
  /** The card that describes the agent. */
  readonly card: AgentCard;
  /** `'runtime'` or `'http'`. */
  readonly transport: AgentTransport;
  /** `'auto'` or `'fixed'`. */
  readonly skillsMode: SkillsMode;
  /** The policy that decides every call. */
  readonly policy: Policy;
  /** The approver, when there is one. */
  readonly approvalHandler: ApprovalHandler | undefined;
  /** Answers tools' questions in-process, when there is one. */
  readonly elicitationHandler: ElicitationHandler | undefined;
  /** Answers tools' sampling requests in-process, when there is one. */
  readonly samplingHandler: SamplingHandler | undefined;
  /** The agent's tools by name (a read-only live view). */
  readonly tools: ReadonlyMap<string, BaseTool>;
  /** The agent's resources, resource templates and prompts (found by `addToolset`). */
  readonly catalog = new CatalogRegistry();
  /** Where `startTool` keeps its tasks (default: an `InMemoryTaskStore`). */
  readonly taskStore: TaskStore;
  /** Serialized MCP server entries carried over from a restore, for an MCP adapter to reconnect. */
  readonly mcpServers: readonly McpServerDict[];
  private taskRunner: TaskRunner | undefined;
  private readonly registry = new ToolRegistry();
  private readonly toolSkillIds = new Set<string>();
  private readonly host: ToolCallHost;
  private readonly emitter: TelemetryEmitter<AgentEventMap>;
  private readonly serving = new AgentServing();

  /**
   * @throws ToolInputError for malformed options; ToolDefinitionError for an option that is not known or a
   *   badly declared tool.
   */
  constructor(options: AgentOptions) {
    const read = readAgentOptions(options);
    this.card = read.card;
    this.transport = read.transport;
    this.skillsMode = read.skillsMode;
    this.policy = read.policy;
    this.approvalHandler = read.approvalHandler;
    this.elicitationHandler = read.elicitationHandler;
    this.samplingHandler = read.samplingHandler;
    this.taskStore = read.taskStore;
    this.tools = new ReadonlyToolMap(this.registry);
    this.mcpServers = read.mcpServers;
    const telemetry = options.telemetry ?? {};
    this.emitter = new TelemetryEmitter<AgentEventMap>(telemetry.onListenerError);
    this.host = createToolCallHost(read, telemetry, this.emitter, (name) => this.registry.resolve(name));
    for (const tool of collectInitialTools(options)) this.addTool(tool);
    for (const instance of options.toolsets ?? []) this.registerCatalog(this.catalog.scan(instance));
  }

  /** The agent's name (the card's). */
  get name(): string {
    return this.card.name;
  }

  /**
   * Registers a tool (any BaseTool). A tool of the same name from the same source (the same MCP server,
   * native code, the built-ins) is replaced, with its skill in `'auto'` mode; one from another source is
   * refused unless `options.replace` is true, so a remote tool never silently takes a local tool's calls.
   * Never calls the tool.
   *
   * @throws ToolDefinitionError for an object that is not a tool, a name another source holds, or an option
   *   that is not known.
   */
  addTool<T extends BaseTool>(tool: T, options: AgentAddToolOptions = {}): T {
    assertKnownOptions(options, AGENT_ADD_TOOL_OPTIONS);
    this.registry.register(tool, { replace: options.replace === true ? true : 'same-source' });
    this.syncSkill(tool);
    return tool;
  }

  /**
   * Scans an instance's `@Tool` methods and registers them all (none if any is declared wrongly, or if a
   * name is held by a tool from another source and `options.replace` is not true), with its `@Resource`,
   * `@ResourceTemplate` and `@Prompt` methods (in {@link catalog}).
   *
   * @throws ToolDefinitionError when a tool or catalog entry is declared wrongly, a name (or resource URI)
   *   is taken, or an option is not known.
   */
  addToolset(instance: object, options: AgentAddToolOptions = {}): BaseTool[] {
    assertKnownOptions(options, AGENT_ADD_TOOL_OPTIONS, { where: 'agent.addToolset()' });
    const entries = this.catalog.scan(instance);
    const tools = this.registry.registerAll(instance, {
      replace: options.replace === true ? true : 'same-source',
    });
    for (const tool of tools) this.syncSkill(tool);
    this.registerCatalog(entries);
    return tools;
  }

  /**
   * Registers only an instance's `@Resource`, `@ResourceTemplate` and `@Prompt` methods (not its tools),
   * for discovery code that registers tools on its own (the Nest module).
   *
   * @throws ToolDefinitionError when an entry is declared wrongly or its URI or name is taken.
   */
  addCatalog(instance: object): readonly CatalogEntry[] {
    const entries = this.catalog.scan(instance);
    this.registerCatalog(entries);
    return entries;
  }

  /**
   * Registers a function as a tool now and returns the function unchanged; with no function, returns a
   * decorator that does the same. The tool is then `agent.tools.get(options.name)`.
   *
   * @throws ToolDefinitionError for a bad name, schema or builder, or an option that is not known.
   */
  tool<F extends ToolFunction>(options: AgentToolOptions, fn: F): F;
  tool(options: AgentToolOptions): <F extends ToolFunction>(fn: F) => F;
  tool<F extends ToolFunction>(
    options: AgentToolOptions,
    fn?: F,
  ): F | (<G extends ToolFunction>(fn: G) => G) {
    return registerToolFunction(options, fn, (tool) => this.addTool(tool));
  }

  /** Removes a tool (and, in `'auto'` mode, the skill it advertised); returns whether it was there. */
  removeTool(name: string): boolean {
    const removed = this.registry.remove(name);
    if (removed && this.skillsMode === 'auto' && this.toolSkillIds.delete(name)) this.card.removeSkill(name);
    return removed;
  }

  /** Returns the tool of that name, or undefined. */
  getTool(name: string): BaseTool | undefined {
    return this.registry.get(name);
  }

  /** Subscribes a listener to an event; a listener that throws never breaks a call. */
  on<Name extends AgentEventName>(event: Name, listener: TelemetryListener<AgentEventMap[Name]>): this {
    this.emitter.on(event, listener);
    return this;
  }

  /** Unsubscribes a listener. */
  off<Name extends AgentEventName>(event: Name, listener: TelemetryListener<AgentEventMap[Name]>): this {
    this.emitter.off(event, listener);
    return this;
  }

  /**
   * Calls a tool through the controlled path in a fresh run context (no budget limit).
   *
   * @throws see {@link callToolInContext}.
   */
  callTool(name: string, args?: Record<string, unknown>): Promise<unknown> {
    return executeToolCall(this.host, name, new RunContext(), args);
  }

  /**
   * Calls a tool in a run context: look up → validate → prepare action → policy → approval → budget and
   * cancellation → run → result. The context's permissions narrow the policy, its budget counts the call,
   * and canceling it rejects the call at once.
   *
   * @throws ToolNotFoundError (listing the tools), ToolValidationError, ToolDefinitionError,
   *   ActionDeniedError, ApprovalRequiredError, ActionPolicyError, BudgetExceededError,
   *   ToolCancelledError, or the tool's own error.
   */
  callToolInContext(name: string, context: RunContext, args?: Record<string, unknown>): Promise<unknown> {
    if (!(context instanceof RunContext)) {
      return Promise.reject(
        new ToolInputError(
          `callToolInContext('${name}', context) needs a RunContext; create one with new RunContext({ budget, permissions, signal }).`,
        ),
      );
    }
    return executeToolCall(this.host, name, context, args);
  }

  /**
   * Reads a resource (a `@Resource` URI or one a `@ResourceTemplate` matches) through the same path as a tool
   * call: variables validated, policy, approval, budget, cancellation. A denied read rejects, never data.
   *
   * @throws ResourceNotFoundError, ToolValidationError, ActionDeniedError, ApprovalRequiredError,
   *   BudgetExceededError, ToolCancelledError, ToolDefinitionError, or the method's own error.
   */
  readResource(uri: string, context: RunContext = new RunContext()): Promise<ReadResourceResult> {
    return readCatalogResource(this.host, this.catalog, uri, context);
  }

  /**
   * Gets a `@Prompt`'s messages through the same path as a tool call (arguments validated, policy, approval).
   *
   * @throws PromptNotFoundError, ToolValidationError, ActionDeniedError, ApprovalRequiredError,
   *   BudgetExceededError, ToolCancelledError, ToolDefinitionError, or the method's own error.
   */
  getPrompt(
    name: string,
    args?: Record<string, unknown>,
    context: RunContext = new RunContext(),
  ): Promise<GetPromptResult> {
    return getCatalogPrompt(this.host, this.catalog, name, context, args);
  }

  /**
   * Authorizes a read without reading (what `resources/subscribe` asks): the URI resolves, the variables
   * validate, the policy and approver allow it; the method does not run, no budget is charged.
   *
   * @throws what {@link readResource} throws before the method runs, budget aside.
   */
  authorizeResourceRead(uri: string, context: RunContext = new RunContext()): Promise<void> {
    return authorizeCatalogResource(this.host, this.catalog, uri, context);
  }

  /**
   * Completes a template variable or prompt argument with its `complete` provider, which runs with the
   * context once the policy and approver allowed the entry's read or get (no budget is charged).
   *
   * @throws see {@link completeCatalogEntry}.
   */
  complete(
    reference: CompletionReference,
    argument: { name: string; value: string },
    options: CompleteOptions = {},
  ): Promise<CompletionResult> {
    return completeCatalogEntry(this.host, this.catalog, reference, argument, options);
  }

  /** Tells the served sessions subscribed to a resource that it changed (`notifications/resources/updated`). */
  notifyResourceUpdated(uri: string): void {
    this.catalog.notifyResourceUpdated(uri);
  }

  /**
   * Starts a tool as a task through the same path as {@link callToolInContext}; resolves once the call is
   * authorized and its task exists in {@link taskStore}, with a handle to poll, await or cancel it.
   *
   * @throws what {@link callToolInContext} throws before the tool runs (no task is created then).
   */
  startTool(name: string, args?: Record<string, unknown>, options?: StartToolOptions): Promise<ToolTask> {
    this.taskRunner ??= new TaskRunner({ store: this.taskStore });
    return startToolTask(this, this.taskRunner, name, args, options);
  }

  /**
   * Dry-runs the policy for a call: validates the arguments, builds the action (action builders run) and
   * returns what the policy decides in that context. Asks no approver, charges no budget, calls nothing.
   *
   * @throws ToolNotFoundError, ToolValidationError, ToolDefinitionError, ActionPolicyError, ToolCancelledError.
   */
  checkPolicy(
    name: string,
    args?: Record<string, unknown>,
    context: RunContext = new RunContext(),
  ): Promise<PolicyDecision> {
    return checkToolPolicy(this.host, name, args, context);
  }

  /**
   * Runs the tool-calling loop: the model sees the agent's tools, and every call it makes goes through
   * {@link callToolInContext} (validation, policy, approval, budget, cancellation). Problems go back to the
   * model as structured tool results.
   *
   * @throws BudgetExceededError (with the trace) when a step, model-call or tool-call budget runs out.
   * @throws ToolCancelledError when the run is canceled.
   * @throws ToolRuntimeError when the model provider fails.
   */
  infer(prompt: string | readonly LlmMessage[], options: RunToolLoopOptions): Promise<ToolLoopResult> {
    return runToolLoop(this, prompt, options);
  }

  /**
   * Serves the agent's tools over MCP (streamable HTTP at `/mcp`) and its card at `/.well-known/agent.json`,
   * on the card's URL (127.0.0.1 unless `allowNonLoopback`). Every remote call takes the same controlled path.
   * Starting twice returns the running server.
   *
   * @throws ToolInputError when the agent's transport is not `'http'` or the address cannot be used.
   */
  start(options: AgentServerOptions = {}): Promise<AgentServerHandle> {
    return this.serving.start(this, options);
  }

  /** Stops serving (closes sessions and connections); does nothing when the agent is not serving. */
  stop(): Promise<void> {
    return this.serving.stop();
  }

  /** Returns the agent as plain data: card, built-in tools by id, native tool names, first-party policy. */
  toDict(): AgentDict {
    return loadSerializeAgent().serializeAgent({
      card: this.card,
      transport: this.transport,
      skills: this.skillsMode,
      policy: this.policy,
      tools: this.registry.list(),
      mcpServers: this.mcpServers,
    });
  }

  /** Returns {@link toDict} as YAML text. */
  toYAML(): string {
    return loadAgentYaml().agentDictToYaml(this.toDict());
  }

  /**
   * Restores an agent from {@link toDict} data; executable parts come from `overrides`.
   *
   * @throws ToolInputError naming the malformed field; nothing is half-restored.
   */
  static fromDict(data: unknown, overrides: AgentRestoreOverrides = {}): Agent {
    return new Agent(loadRestoreAgent().restoreAgentOptions(data, overrides));
  }

  /**
   * Restores an agent from {@link toYAML} text (the text itself: for a file, use {@link fromYAMLFile}).
   *
   * @throws ToolInputError when the text is not YAML or a field is malformed; text that looks like a file
   *   path says to use `fromYAMLFile`.
   */
  static fromYAML(text: string, overrides: AgentRestoreOverrides = {}): Agent {
    return Agent.fromDict(loadAgentYaml().parseAgentYaml(text), overrides);
  }

  /**
   * Restores an agent from a YAML file written from {@link toYAML} (read as UTF-8; a relative path is
   * resolved from the working directory); executable parts come from `options`, as for {@link fromYAML}.
   *
   * @throws ToolInputError when the file is missing (naming the path and where it was looked for), a
   *   directory, too large or unreadable, when it is not YAML, or when a field is malformed.
   */
  static fromYAMLFile(path: string, options: AgentRestoreOverrides = {}): Agent {
    const text = loadReadAgentYamlFile().readAgentYamlFile(path);
    return Agent.fromDict(loadAgentYaml().parseAgentYaml(text, { file: path }), options);
  }

  private registerCatalog(entries: readonly CatalogEntry[]): void {
    this.catalog.add(entries);
    if (this.skillsMode === 'auto') for (const entry of entries) this.card.setSkill(toCatalogSkill(entry));
  }

  private syncSkill(tool: BaseTool): void {
    if (this.skillsMode !== 'auto') return;
    this.card.setSkill(AgentSkill.fromTool(tool));
    this.toolSkillIds.add(tool.name);
  }
}
