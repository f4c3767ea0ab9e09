import type { RunContext } from '../runtime/run-context';

/** What a completion provider is told besides the value being typed. */
export interface CompletionContext {
  /** The values of the other variables or arguments already given, by name. */
  readonly arguments?: Readonly<Record<string, string>>;
  /**
   * The run context of the completion, once the policy allowed it (`agent.complete()`, and served
   * `completion/complete` with the request's context, whose signal aborts when the client cancels): a
   * provider that queries something slow passes `runContext.signal` on. Absent through `catalog.complete()`
   * called without one.
   */
  readonly runContext?: RunContext;
}

/**
 * Suggests values for one resource-template variable or prompt argument from what has been typed so far
 * (served as `completion/complete`; at most 100 values are sent).
 */
export type CompletionProvider = (
  value: string,
  context?: CompletionContext,
) => readonly string[] | Promise<readonly string[]>;

/** Completion providers by variable or argument name. */
export type CompletionProviders = Readonly<Record<string, CompletionProvider>>;
