/** The part of an OpenTelemetry span this package uses. */
export interface SpanLike {
  setAttribute(key: string, value: string | number | boolean): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  isRecording(): boolean;
  end(): void;
}

/** The part of `@opentelemetry/api` this package uses (structural, so the package stays optional). */
export interface OpenTelemetryApiLike {
  /** Present in `@opentelemetry/api`: lets the tracer skip calls entirely while no provider is registered. */
  ProxyTracerProvider?: new () => { getDelegate(): unknown };
  trace: {
    getTracerProvider?(): { getDelegate?(): unknown };
    getTracer(
      name: string,
      version?: string,
    ): {
      startSpan(
        name: string,
        options?: { kind?: number; attributes?: Record<string, string | number | boolean> },
      ): SpanLike;
    };
  };
}

/** How one tool call ended, as recorded on its span and in telemetry. */
export type ToolCallOutcome =
  | 'success'
  | 'denied'
  | 'approval_required'
  | 'canceled'
  | 'budget_exceeded'
  | 'invalid_arguments'
  | 'not_found'
  | 'error';

/** Options of {@link ToolCallTracer}. */
export interface ToolCallTracerOptions {
  /** The OpenTelemetry API to use; `undefined` loads `@opentelemetry/api` when installed, `null` disables spans. */
  api?: OpenTelemetryApiLike | null;
  /** Tracer name (default `protolink`). */
  tracerName?: string;
  /** Put the validated arguments (JSON) on spans; off by default because arguments may hold personal data. */
  recordArguments?: boolean;
}

const SPAN_KIND_INTERNAL = 0;
const STATUS_OK = 1;
const STATUS_ERROR = 2;
const SPAN_OPTIONS = Object.freeze({ kind: SPAN_KIND_INTERNAL });

/**
 * Loads `@opentelemetry/api` if it is installed; returns null when it is not, so Protolink works without it.
 * `load` is a seam for tests.
 */
export function loadOpenTelemetryApi(
  load: () => unknown = requireOpenTelemetry,
): OpenTelemetryApiLike | null {
  try {
    const api = load() as Partial<OpenTelemetryApiLike> | undefined;
    return api && typeof api.trace?.getTracer === 'function' ? (api as OpenTelemetryApiLike) : null;
  } catch {
    return null;
  }
}

function requireOpenTelemetry(): unknown {
  // A guarded require: @opentelemetry/api is an optional peer dependency.
  return require('@opentelemetry/api');
}

/** One tool call's recording span. */
export class ToolCallSpan {
  constructor(
    private readonly span: SpanLike,
    private readonly recordArguments: boolean,
  ) {}

  /** Records the policy's effect. */
  setDecision(effect: string): void {
    this.span.setAttribute('protolink.policy.decision', effect);
  }

  /** Records the validated arguments, only when the application opted in. */
  setArguments(args: Record<string, unknown>): void {
    if (!this.recordArguments) return;
    let text: string;
    try {
      text = JSON.stringify(args);
    } catch {
      text = '[unserializable]';
    }
    this.span.setAttribute('gen_ai.tool.call.arguments', text);
  }

  /** Records the outcome (and the error's class name, never its message) and ends the span. */
  end(outcome: ToolCallOutcome, error?: unknown): void {
    this.span.setAttribute('protolink.tool.outcome', outcome);
    if (error !== undefined) {
      const errorType = error instanceof Error ? error.name : typeof error;
      this.span.setAttribute('error.type', errorType);
      this.span.setStatus({ code: STATUS_ERROR, message: errorType });
    } else this.span.setStatus({ code: STATUS_OK });
    this.span.end();
  }
}

/** Starts one OpenTelemetry span per tool call (`execute_tool <name>`), when a tracer is registered. */
export class ToolCallTracer {
  private readonly tracer: ReturnType<OpenTelemetryApiLike['trace']['getTracer']> | undefined;
  private readonly recordArguments: boolean;
  private readonly api: OpenTelemetryApiLike | null;
  private readonly noopProvider: unknown;

  constructor(options: ToolCallTracerOptions = {}) {
    const api = options.api === undefined ? loadOpenTelemetryApi() : options.api;
    this.api = api;
    // The API's proxy tracer delegates to whatever provider is registered later, so caching it is safe.
    this.tracer = api ? api.trace.getTracer(options.tracerName ?? 'protolink') : undefined;
    this.recordArguments = options.recordArguments === true;
    // A fresh proxy provider answers with the API's no-op provider: while the global one does too, no
    // application has registered tracing and a call costs no span at all.
    this.noopProvider = api?.ProxyTracerProvider ? new api.ProxyTracerProvider().getDelegate() : undefined;
  }

  /** Whether an application has registered a tracer provider (always true for APIs that cannot tell). */
  get active(): boolean {
    if (!this.tracer) return false;
    if (this.noopProvider === undefined) return true;
    return this.api?.trace.getTracerProvider?.().getDelegate?.() !== this.noopProvider;
  }

  /** Starts the span of one call; returns undefined when nothing records it. */
  start(toolName: string, getCallId: () => string, getRunId: () => string): ToolCallSpan | undefined {
    if (!this.tracer || !this.active) return undefined;
    const span = this.tracer.startSpan(`execute_tool ${toolName}`, SPAN_OPTIONS);
    if (!span.isRecording()) {
      span.end();
      return undefined;
    }
    span.setAttribute('gen_ai.operation.name', 'execute_tool');
    span.setAttribute('gen_ai.tool.name', toolName);
    span.setAttribute('gen_ai.tool.call.id', getCallId());
    span.setAttribute('protolink.run.id', getRunId());
    return new ToolCallSpan(span, this.recordArguments);
  }
}
