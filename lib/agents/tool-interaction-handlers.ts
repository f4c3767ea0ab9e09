import type { RunContext } from '../runtime/run-context';
import type {
  ElicitationRequest,
  ElicitationResult,
  SamplingRequest,
  SamplingResult,
} from '../runtime/tool-call-channel';

/**
 * Answers a tool's `context.elicit()` in-process (an Agent option): shows `request.message` and a form for
 * `request.requestedSchema` to the user and returns `{ action, content? }`. The content is then validated and
 * coerced against the schema (defaults applied) before the tool sees it.
 */
export type ElicitationHandler = (
  request: ElicitationRequest,
  context: RunContext,
) => ElicitationResult<Record<string, unknown>> | Promise<ElicitationResult<Record<string, unknown>>>;

/** What a {@link SamplingHandler} receives: the tool's request and which tool asks. */
export interface SamplingHandlerRequest extends SamplingRequest {
  /** The tool that asks. */
  readonly toolName: string;
}

/** Answers a tool's `context.sample()` in-process (an Agent option), e.g. by calling the application's model. */
export type SamplingHandler = (
  request: SamplingHandlerRequest,
  context: RunContext,
) => SamplingResult | Promise<SamplingResult>;
