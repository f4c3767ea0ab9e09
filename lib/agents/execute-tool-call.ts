import { CapabilityPolicy } from '../policy/capability-policy';
import { raceCancellation } from '../runtime/race-cancellation';
import { authorizeAction } from '../policy/authorize-action';
import type { ApprovalHandler } from '../policy/approval-handler';
import type { Policy } from '../policy/policy';
import { awaitToolRun, runCancellable } from '../runtime/run-cancellable';
import type { RunContext } from '../runtime/run-context';
import type { TelemetryEmitter } from '../runtime/telemetry-emitter';
import type { ToolCallTracer } from '../runtime/tool-call-tracer';
import type { BaseTool, ToolCallOptions } from '../tools/base-tool';
import { NativeTool } from '../tools/native-tool';
import type { AgentEventMap } from './agent-events';
import { runInToolCallScope } from '../runtime/tool-call-scope';
import { hasToolLaunchHook, takeToolLaunchHook } from '../runtime/tool-launch-hook';
import { AgentToolCallChannel } from './agent-tool-call-channel';
import { approvalThroughChannel } from './approval-through-channel';
import { hasDefaultAction, prepareToolCall, validateFor } from './prepare-tool-call';
import type { ElicitationHandler, SamplingHandler } from './tool-interaction-handlers';
import { ToolCallObserver } from './tool-call-observer';

/** What the call path needs from its agent. */
export interface ToolCallHost {
  /** Returns the tool or throws ToolNotFoundError listing the tools that exist. */
  resolveTool(name: string): BaseTool;
  /** The policy to ask. */
  readonly policy: Policy;
  /** The approver (none → fail closed on `require_approval`). */
  readonly approvalHandler: ApprovalHandler | undefined;
  /** Answers tools' questions in-process. */
  readonly elicitationHandler: ElicitationHandler | undefined;
  /** Answers tools' sampling requests in-process. */
  readonly samplingHandler: SamplingHandler | undefined;
  /** Listeners. */
  readonly emitter: TelemetryEmitter<AgentEventMap>;
  /** Spans (undefined when tracing is off). */
  readonly tracer: ToolCallTracer | undefined;
  /** A fresh call id. */
  nextCallId(): string;
}

/**
 * The controlled path of one tool call: look up → validate → prepare action → (cancellation) → policy →
 * approval → (budget, cancellation) → run (raced against cancellation) → (cancellation) → result, with
 * events and a span around it. Whoever cancels the context (the caller, an outside signal, a parent, the
 * deadline, another tool or the running tool itself) rejects the call at once.
 *
 * @throws ToolNotFoundError, ToolValidationError, ToolDefinitionError, ActionDeniedError,
 *   ApprovalRequiredError, ActionPolicyError, BudgetExceededError, ToolCancelledError, or the tool's own error.
 */
export function executeToolCall(
  host: ToolCallHost,
  name: string,
  context: RunContext,
  rawArgs: unknown,
): Promise<unknown> {
  const observer = ToolCallObserver.start(host, name, context, rawArgs);
  if (observer.quiet && !AgentToolCallChannel.isNeeded(host) && !hasToolLaunchHook(context)) {
    try {
      const tool = host.resolveTool(name);
      if (needsNoAction(host.policy, tool)) return executeQuietly(tool, name, context, rawArgs);
    } catch (error) {
      return Promise.reject(error);
    }
  }
  return executeObserved(host, name, context, rawArgs, observer);
}

/**
 * The call of a tool with no capabilities and no action builder, under a plain CapabilityPolicy, with nobody
 * listening: the policy's answer is known without an action (allow: the context is checked for cancellation
 * first), so no RunAction is built. A synchronous tool settles without a listener on the context; a promise
 * is raced against the context's cancellation, whoever cancels it.
 */
function executeQuietly(
  tool: BaseTool,
  name: string,
  context: RunContext,
  rawArgs: unknown,
): Promise<unknown> {
  let args: Record<string, unknown>;
  try {
    context.throwIfCanceled(name);
    args = validateFor(tool, rawArgs);
    context.checkToolCallBudget(name);
    context.throwIfCanceled(name);
    context.chargeToolCall(name);
  } catch (error) {
    return Promise.reject(error);
  }
  // The function itself, without invoke()'s promise wrapper: a synchronous result needs no race. A subclass
  // that overrides invoke() keeps its own way of running.
  const run =
    tool instanceof NativeTool && tool.invoke === NativeTool.prototype.invoke
      ? () => tool.runValidated(args, context)
      : () => invokeTool(tool, args, context);
  return awaitToolRun(context, run, name);
}

/** Whether the policy decides this tool's calls without looking at an action: see {@link executeQuietly}. */
function needsNoAction(policy: Policy, tool: BaseTool): boolean {
  return (
    Object.getPrototypeOf(policy) === CapabilityPolicy.prototype &&
    (tool.capabilities?.length ?? 0) === 0 &&
    hasDefaultAction(tool)
  );
}

async function executeObserved(
  host: ToolCallHost,
  name: string,
  context: RunContext,
  rawArgs: unknown,
  observer: ToolCallObserver,
): Promise<unknown> {
  try {
    const tool = host.resolveTool(name);
    context.throwIfCanceled(name);
    // An async actionBuilder that never answers is bounded by the run's cancellation and deadline.
    const preparing = prepareToolCall(tool, rawArgs, context);
    const prepared =
      preparing instanceof Promise
        ? await raceCancellation(context, preparing, `Preparing the action of tool '${name}'`, name)
        : preparing;
    observer.arguments(prepared.action, prepared.args);
    context.checkToolCallBudget(name);
    const authorization = authorizeAction(prepared.action, context, {
      policy: host.policy,
      approvalHandler: host.approvalHandler ?? approvalThroughChannel(context),
      observer,
    });
    if (authorization instanceof Promise) await authorization;
    context.throwIfCanceled(name);
    // A task is created here: after every check, so a refused call never creates one.
    const launch = takeToolLaunchHook(context);
    if (launch) {
      await launch(name);
      context.throwIfCanceled(name);
    }
    context.chargeToolCall(name);
    const run = AgentToolCallChannel.isNeeded(host)
      ? () =>
          runInToolCallScope(
            new AgentToolCallChannel(host, name, observer.callId || host.nextCallId(), context),
            () => invokeTool(tool, prepared.args, context),
          )
      : () => invokeTool(tool, prepared.args, context);
    const result = await runCancellable(context, run, {
      toolName: name,
      onLateResult: (late) => observer.lateResult(late),
    });
    observer.end(result);
    return result;
  } catch (error) {
    observer.fail(error);
    throw error;
  }
}

function invokeTool(tool: BaseTool, args: Record<string, unknown>, context: RunContext): Promise<unknown> {
  // Arguments were validated once already (and again if a builder rewrote them): NativeTools skip a third pass.
  if (tool instanceof NativeTool) return tool.invoke(args, { context });
  const options: ToolCallOptions = {
    context,
    get signal() {
      return context.signal;
    },
  };
  return tool.call(args, options);
}
