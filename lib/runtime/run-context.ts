import { randomUUID } from './random-uuid';
import { ToolCancelledError } from '../errors/tool-cancelled-error';
import { ToolInputError } from '../errors/tool-input-error';
import { compileCapabilityRules } from '../capabilities/capability-rules';
import type { CompiledCapabilityRules } from '../capabilities/capability-rules';
import type { PolicyEffect } from '../capabilities/policy-effect';
import { describeAbortReason } from './describe-abort-reason';
import { BudgetLedger, normalizeBudget } from './run-budget';
import type { RunBudget, RunUsage } from './run-budget';
import { EMPTY_RECORD, copyData, freezeCopy } from './deep-freeze';
import { ToolRuntimeError } from '../errors/tool-runtime-error';
import { isToolLogLevel, TOOL_LOG_LEVELS } from './tool-call-channel';
import type {
  ElicitationResult,
  ElicitationSchemaInput,
  SamplingRequest,
  SamplingResult,
  ToolCallChannel,
  ToolLogLevel,
} from './tool-call-channel';
import { findToolCallChannel } from './tool-call-scope';
import { unwireOutsideSources, wireOutsideSources } from './wire-outside-sources';
import { addCancelListener, callCancelListeners, removeCancelListener } from './cancel-listeners';
import type { CancelListeners } from './cancel-listeners';

import type { PermissionValue, RunContextDict, RunContextOptions } from './run-context-options';

export type { PermissionValue, RunContextDict, RunContextOptions } from './run-context-options';

/**
 * One run of an agent: identity, permissions, budget, metadata and cancellation. Its `signal` aborts when
 * the run is canceled, when the given signal aborts, when a parent is canceled, or when
 * `budget.maxRuntimeSeconds` passes. Children share cancellation downward and count against the parent's
 * budget.
 */
export class RunContext {
  readonly sessionId: string | null;
  /** The context's permission rules in canonical form (effects normalized), or null. */
  readonly permissions: Readonly<Record<string, PolicyEffect>> | null;
  readonly budget: Readonly<RunBudget>;
  readonly metadata: Readonly<Record<string, unknown>>;
  /** When the run started (ms since the epoch). */
  readonly startedAt: number;
  private runIdValue: string | undefined;
  private readonly ledger: BudgetLedger;
  private readonly externalSignal: AbortSignal | undefined;
  private readonly parent: RunContext | undefined;
  private readonly deadline: number | undefined;
  private readonly compiledPermissions: CompiledCapabilityRules | null;
  private controller: AbortController | undefined;
  private cancelListeners: CancelListeners;
  // Undoes the wiring to outside cancellation sources; set while this context has listeners.
  private unwireSources: (() => void) | undefined;
  private canceledExplicitly = false;
  private deadlinePassed = false;
  private explicitReason: string | undefined;

  /** @throws ToolInputError for a malformed budget or permissions. */
  constructor(options: RunContextOptions = {}, parent?: RunContext) {
    this.runIdValue = options.runId;
    this.sessionId = options.sessionId ?? parent?.sessionId ?? null;
    this.compiledPermissions = normalizePermissions(options.permissions);
    this.permissions = this.compiledPermissions ? this.compiledPermissions.canonical : null;
    this.budget = normalizeBudget(options.budget);
    this.metadata = options.metadata ? freezeCopy(options.metadata) : EMPTY_RECORD;
    this.externalSignal = options.signal;
    this.parent = parent;
    this.startedAt = Date.now();
    this.deadline =
      this.budget.maxRuntimeSeconds === undefined
        ? undefined
        : this.startedAt + this.budget.maxRuntimeSeconds * 1000;
    this.ledger = new BudgetLedger(this.budget, parent?.ledger);
  }

  /** The run's id. */
  get runId(): string {
    return (this.runIdValue ??= this.parent
      ? `${this.parent.runId}.${randomUUID().slice(0, 8)}`
      : randomUUID());
  }

  /** What the run has used (this context and its children). */
  get usage(): Readonly<RunUsage> {
    return { ...this.ledger.usage };
  }

  /** Whether the run was canceled (explicitly, by its signal, by a parent or by its deadline). */
  get canceled(): boolean {
    return (
      this.canceledExplicitly ||
      this.externalSignal?.aborted === true ||
      this.isPastDeadline() ||
      this.parent?.canceled === true
    );
  }

  private isPastDeadline(): boolean {
    return this.deadline !== undefined && (this.deadlinePassed || Date.now() >= this.deadline);
  }

  /** Why the run was canceled, when it was. */
  get cancelReason(): string | undefined {
    if (this.canceledExplicitly) return this.explicitReason;
    if (this.externalSignal?.aborted)
      return describeAbortReason(this.externalSignal.reason) ?? 'the caller aborted the signal';
    if (this.isPastDeadline()) return `budget.maxRuntimeSeconds (${this.budget.maxRuntimeSeconds}) elapsed`;
    return this.parent?.cancelReason;
  }

  /** An AbortSignal for tools and I/O: aborts whenever the run is canceled. */
  get signal(): AbortSignal {
    if (!this.controller) {
      const controller = new AbortController();
      this.controller = controller;
      // Whoever holds the signal keeps this context (and so its wiring to a parent or outside signal) alive.
      Object.defineProperty(controller.signal, SIGNAL_OWNER, { value: this });
      const abort = () => {
        if (!controller.signal.aborted)
          controller.abort(new ToolCancelledError(this.cancelMessage(), { reason: this.cancelReason }));
      };
      if (this.canceled) abort();
      else this.onCanceled(abort);
    }
    return this.controller.signal;
  }

  /**
   * Calls `listener` once when the run is canceled (explicitly, by its signal, by a parent or by its
   * deadline); returns a function that removes it. Cheaper than listening on {@link signal}: outside
   * sources are wired once per context, not once per listener.
   */
  onCanceled(listener: () => void): () => void {
    if (this.canceled) {
      queueMicrotask(() => callCancelListeners(listener));
      return () => undefined;
    }
    this.cancelListeners = addCancelListener(this.cancelListeners, listener);
    this.wireCancelSources();
    return () => this.stopListening(listener);
  }

  /** Cancels the run (and its children); tools see their signal abort. */
  cancel(reason?: string): void {
    if (this.canceledExplicitly) return;
    this.canceledExplicitly = true;
    this.explicitReason = reason;
    this.notifyCanceled();
  }

  /** @throws ToolCancelledError when the run is canceled. */
  throwIfCanceled(toolName?: string): void {
    if (this.canceled)
      throw new ToolCancelledError(this.cancelMessage(toolName), { reason: this.cancelReason, toolName });
  }

  /**
   * Reports the progress of the running tool: a `notifications/progress` to the MCP client when the call is
   * served (and the client asked for progress), a `tool-progress` event of the Agent in-process; otherwise
   * nothing. `progress` should grow with each report.
   *
   * @throws ToolInputError when `progress` or `total` is not a finite number.
   */
  async reportProgress(progress: number, total?: number, message?: string): Promise<void> {
    if (!Number.isFinite(progress) || (total !== undefined && !Number.isFinite(total))) {
      throw new ToolInputError(
        `reportProgress(progress, total?) takes finite numbers, got ${String(progress)}${total === undefined ? '' : ` and ${String(total)}`}.`,
      );
    }
    if (message !== undefined && typeof message !== 'string')
      throw new ToolInputError('reportProgress(progress, total?, message?): message must be a string.');
    await this.channel()?.progress(progress, total, message);
  }

  /**
   * Sends a log message from the running tool: a `notifications/message` to the MCP client when served
   * (filtered by the level the client set with `logging/setLevel`), a `tool-log` event of the Agent
   * in-process; otherwise nothing.
   *
   * @throws ToolInputError for a level that is not one of the eight RFC 5424 levels.
   */
  async log(level: ToolLogLevel, data: unknown, logger?: string): Promise<void> {
    if (!isToolLogLevel(level)) {
      throw new ToolInputError(
        `log(level, data): level must be one of ${TOOL_LOG_LEVELS.join(', ')}; got ${JSON.stringify(level)}.`,
      );
    }
    await this.channel()?.log(level, data, logger);
  }

  /**
   * Asks the user a question: `elicitation/create` to the MCP client when served, the Agent's
   * `elicitationHandler` in-process. With `accept`, `content` is validated and coerced against the schema
   * (a JSON Schema of flat primitive fields, or a DTO class whose instance is returned), defaults applied.
   *
   * @throws ToolRuntimeError when nobody can answer (no handler, or a client without the capability).
   * @throws ToolValidationError when the answer does not match the schema.
   */
  async elicit<T = Record<string, unknown>>(
    message: string,
    schema: ElicitationSchemaInput | (new (...args: never[]) => T),
  ): Promise<ElicitationResult<T>> {
    if (typeof message !== 'string' || message.trim() === '')
      throw new ToolInputError(
        'elicit(message, schema): message must be a non-empty string shown to the user.',
      );
    const channel = this.channel();
    if (!channel) throw noAnswerError('elicit', 'elicitationHandler', 'elicitation');
    return (await channel.elicit(message, schema, this.signal)) as ElicitationResult<T>;
  }

  /**
   * Asks a model: `sampling/createMessage` to the MCP client when served, the Agent's `samplingHandler`
   * in-process.
   *
   * @throws ToolRuntimeError when nobody can answer (no handler, or a client without the capability).
   */
  async sample(request: SamplingRequest): Promise<SamplingResult> {
    if (typeof request !== 'object' || request === null || !Array.isArray(request.messages))
      throw new ToolInputError('sample(request) needs { messages: [{ role, content }], maxTokens }.');
    if (!Number.isSafeInteger(request.maxTokens) || request.maxTokens < 1)
      throw new ToolInputError(
        `sample(request): maxTokens must be a whole number of at least 1, got ${String(request.maxTokens)}.`,
      );
    const channel = this.channel();
    if (!channel) throw noAnswerError('sample', 'samplingHandler', 'sampling');
    return channel.sample(request, this.signal);
  }

  /**
   * Closes the response stream of the served call, so the client reconnects and polls for the rest
   * (SEP-1699); frees a connection during long work. Returns false when the call is not served over a
   * resumable HTTP stream (nothing happens then).
   */
  closeSSEStream(): boolean {
    return this.channel()?.closeStream() ?? false;
  }

  private channel(): ToolCallChannel | undefined {
    return findToolCallChannel(this, parentOfContext);
  }

  /** Counts one tool call. @throws BudgetExceededError when `maxToolCalls` would be exceeded. */
  chargeToolCall(toolName: string): void {
    this.ledger.charge('maxToolCalls', `calling tool '${toolName}'`);
  }

  /**
   * Checks that one more tool call fits the budget, without counting it (used before asking approvers).
   *
   * @throws BudgetExceededError when `maxToolCalls` is already used up.
   */
  checkToolCallBudget(toolName: string): void {
    this.ledger.check('maxToolCalls', `calling tool '${toolName}'`);
  }

  /** Counts one loop step. @throws BudgetExceededError when `maxSteps` would be exceeded. */
  chargeStep(): void {
    this.ledger.charge('maxSteps', 'another step');
  }

  /** Counts one model call. @throws BudgetExceededError when `maxLlmCalls` would be exceeded. */
  chargeLlmCall(): void {
    this.ledger.charge('maxLlmCalls', 'another model call');
  }

  /**
   * Returns a child context: canceled with this one, counted against this budget too, with permissions
   * that can only narrow (the policy applies both this context's and the child's rules).
   */
  child(options: RunContextOptions = {}): RunContext {
    return new RunContext({ sessionId: this.sessionId, metadata: { ...this.metadata }, ...options }, this);
  }

  /** The chain of permission rule sets to apply (canonical form), outermost first. */
  permissionChain(): Readonly<Record<string, PolicyEffect>>[] {
    return this.permissionRules().map((rules) => rules.canonical);
  }

  /** The chain of compiled permission rule sets to apply, outermost first (each can only narrow). */
  permissionRules(): readonly CompiledCapabilityRules[] {
    if (!this.parent) return this.compiledPermissions ? [this.compiledPermissions] : EMPTY_RULES;
    const chain = this.parent.permissionRules();
    return this.compiledPermissions ? [...chain, this.compiledPermissions] : chain;
  }

  /** Returns the JSON form (no signal, no parent). */
  toDict(): RunContextDict {
    return {
      runId: this.runId,
      sessionId: this.sessionId,
      permissions: this.permissions ? { ...this.permissions } : null,
      budget: { ...this.budget },
      metadata: copyData(this.metadata) as Record<string, unknown>,
      usage: this.usage,
      canceled: this.canceled,
      cancelReason: this.cancelReason ?? null,
    };
  }

  /** Rebuilds a context from {@link toDict} output. @throws ToolInputError for malformed data. */
  static fromDict(data: unknown): RunContext {
    if (typeof data !== 'object' || data === null)
      throw new ToolInputError('RunContext.fromDict() needs an object.');
    const record = data as Partial<RunContextDict>;
    const context = new RunContext({
      runId: record.runId,
      sessionId: record.sessionId,
      permissions: record.permissions,
      budget: record.budget,
      metadata: record.metadata,
    });
    if (record.usage !== undefined && record.usage !== null)
      context.ledger.restoreUsage(record.usage, 'RunContext.fromDict()');
    if (record.canceled) context.cancel(record.cancelReason ?? undefined);
    return context;
  }

  private stopListening(listener: () => void): void {
    const listeners = this.cancelListeners;
    if (listeners === undefined) return;
    this.cancelListeners = removeCancelListener(listeners, listener);
    if (this.cancelListeners !== undefined) return;
    // No one listens any more: detach from the parent, the signal and the timer, so that a long-lived
    // parent (or signal) does not keep every finished child alive.
    this.unwireSources?.();
    this.unwireSources = undefined;
  }

  private wireCancelSources(): void {
    if (this.unwireSources) return;
    const external = this.externalSignal;
    const parent = this.parent;
    if (!external && !parent && this.deadline === undefined) {
      // Only cancel() can cancel this context: nothing to wire (marked wired all the same).
      this.unwireSources = unwireNothing;
      return;
    }
    const detachOutside = external || parent ? wireOutsideSources(this, external, parent) : undefined;
    const timer =
      this.deadline === undefined
        ? undefined
        : setTimeout(
            () => {
              // Timers may fire a millisecond before Date.now() reaches the deadline: record that it passed.
              this.deadlinePassed = true;
              this.notifyCanceled();
            },
            Math.max(0, this.deadline - Date.now()),
          ).unref();
    this.unwireSources = () => {
      if (detachOutside) {
        unwireOutsideSources(this);
        detachOutside();
      }
      if (timer !== undefined) clearTimeout(timer);
    };
  }

  private notifyCanceled(): void {
    const listeners = this.cancelListeners;
    this.cancelListeners = undefined;
    this.unwireSources?.();
    this.unwireSources = undefined;
    callCancelListeners(listeners);
  }

  private cancelMessage(toolName?: string): string {
    const reason = this.cancelReason;
    return `Run ${this.runId} was canceled${reason ? ` (${reason})` : ''}${toolName ? `; tool '${toolName}' did not complete` : ''}.`;
  }
}

const EMPTY_RULES: readonly CompiledCapabilityRules[] = Object.freeze([]);

function parentOfContext(context: object): object | undefined {
  return (context as unknown as { parent: RunContext | undefined }).parent;
}

function noAnswerError(method: string, handler: string, capability: string): ToolRuntimeError {
  return new ToolRuntimeError(
    `context.${method}() has nobody to answer: give the Agent ${handler === 'elicitationHandler' ? 'an' : 'a'} ${handler} for in-process calls, or serve the tool to an MCP client that declares the ${capability} capability.`,
  );
}

const SIGNAL_OWNER = Symbol('protolink:run-context');

const unwireNothing = (): void => undefined;

function normalizePermissions(
  permissions: Record<string, PermissionValue> | null | undefined,
): CompiledCapabilityRules | null {
  if (permissions === null || permissions === undefined) return null;
  return compileCapabilityRules(permissions, 'RunContext permissions', { allowDefault: true });
}
