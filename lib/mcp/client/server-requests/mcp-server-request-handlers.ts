import type {
  ElicitationRequest,
  ElicitationResult,
  SamplingRequest,
  SamplingResult,
} from '../../../runtime/tool-call-channel';

/** What an {@link MCPElicitationHandler} or {@link MCPSamplingHandler} knows about the request. */
export interface MCPServerRequestContext {
  /** The server that asks (the adapter's `serverName`). */
  readonly serverName: string;
  /** Aborts when the server cancels its request or the session closes. */
  readonly signal: AbortSignal;
}

/**
 * Answers a remote server's `elicitation/create` (an `MCPToolAdapter` option): shows `request.message` and
 * a form for `request.requestedSchema` to the user and returns `{ action, content? }`. Accepted content is
 * validated and coerced against the schema, with the schema's defaults applied (SEP-1034), before it is sent.
 */
export type MCPElicitationHandler = (
  request: ElicitationRequest,
  context: MCPServerRequestContext,
) => ElicitationResult<Record<string, unknown>> | Promise<ElicitationResult<Record<string, unknown>>>;

/**
 * Answers a remote server's `sampling/createMessage` (an `MCPToolAdapter` option), e.g. by calling the
 * application's model; the result goes back to the server as is.
 */
export type MCPSamplingHandler = (
  request: SamplingRequest,
  context: MCPServerRequestContext,
) => SamplingResult | Promise<SamplingResult>;
