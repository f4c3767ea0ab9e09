/** The eight RFC 5424 severities MCP log messages use, least severe first. */
export const TOOL_LOG_LEVELS = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const;

/** A log message's severity (see {@link TOOL_LOG_LEVELS}). */
export type ToolLogLevel = (typeof TOOL_LOG_LEVELS)[number];

/** Returns whether a value is one of the {@link TOOL_LOG_LEVELS}. */
export function isToolLogLevel(value: unknown): value is ToolLogLevel {
  return typeof value === 'string' && (TOOL_LOG_LEVELS as readonly string[]).includes(value);
}

/**
 * What a tool asks the user for with `context.elicit(message, schema)`: a JSON Schema object of flat
 * primitive fields (string, number, integer, boolean, string enums and multi-select enum arrays), or a
 * class-validator DTO class whose derived schema is of that form.
 */
export type ElicitationSchemaInput = Readonly<Record<string, unknown>> | Function;

/** The user's answer to an elicitation. */
export interface ElicitationResult<T = Record<string, unknown>> {
  /** `accept` (content given), `decline` (refused) or `cancel` (dismissed without choosing). */
  readonly action: 'accept' | 'decline' | 'cancel';
  /** With `accept`: the content, validated and coerced against the schema, defaults applied. */
  readonly content?: T;
}

/** What a handler or a client sees of one elicitation. */
export interface ElicitationRequest {
  /** The question shown to the user. */
  readonly message: string;
  /** The JSON Schema of the answer (an object of flat primitive fields). */
  readonly requestedSchema: Readonly<Record<string, unknown>>;
  /** The tool that asks, when known. */
  readonly toolName?: string;
}

/** One content block of a sampling message. */
export type SamplingContent =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image'; readonly data: string; readonly mimeType: string }
  | { readonly type: 'audio'; readonly data: string; readonly mimeType: string };

/** One message of a sampling request. */
export interface SamplingMessage {
  readonly role: 'user' | 'assistant';
  readonly content: SamplingContent;
}

/** What a tool asks the client's model with `context.sample(request)` (MCP `sampling/createMessage`). */
export interface SamplingRequest {
  /** The conversation to complete. */
  readonly messages: readonly SamplingMessage[];
  /** Most tokens to generate. */
  readonly maxTokens: number;
  /** A system prompt the client may use. */
  readonly systemPrompt?: string;
  /** Sampling temperature. */
  readonly temperature?: number;
  /** Sequences that stop generation. */
  readonly stopSequences?: readonly string[];
  /** Hints for the client's choice of model. */
  readonly modelPreferences?: Readonly<Record<string, unknown>>;
  /** Which MCP context to include (`none`, `thisServer`, `allServers`). */
  readonly includeContext?: 'none' | 'thisServer' | 'allServers';
  /** Provider-specific data passed through. */
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/** The model's answer to a sampling request. */
export interface SamplingResult {
  readonly role: 'assistant' | 'user';
  readonly content: SamplingContent;
  /** The model that answered. */
  readonly model: string;
  /** Why generation stopped (`endTurn`, `stopSequence`, `maxTokens`, …). */
  readonly stopReason?: string;
}

/**
 * Where a running tool's progress, log messages, questions and sampling requests go: the MCP client of a
 * served call, or the Agent's events and handlers in-process. Implemented by the serving and agent layers;
 * tools reach it through their RunContext.
 */
export interface ToolCallChannel {
  /** Reports progress (`progress` grows; `total` when known). */
  progress(progress: number, total: number | undefined, message: string | undefined): Promise<void>;
  /** Sends a log message. */
  log(level: ToolLogLevel, data: unknown, logger: string | undefined): Promise<void>;
  /**
   * Asks the user; resolves with the answer validated against the schema.
   *
   * @throws ToolRuntimeError when nobody can answer.
   */
  elicit(
    message: string,
    schema: ElicitationSchemaInput,
    signal: AbortSignal,
  ): Promise<ElicitationResult<unknown>>;
  /**
   * Asks the client's model.
   *
   * @throws ToolRuntimeError when nobody can answer.
   */
  sample(request: SamplingRequest, signal: AbortSignal): Promise<SamplingResult>;
  /** Whether {@link elicit} can reach someone (used to route approvals to the user). */
  canElicit(): boolean;
  /** Closes the call's response stream so the client polls for the rest (SEP-1699); false when not possible. */
  closeStream(): boolean;
}
