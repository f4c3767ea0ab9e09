import { loadOpenTelemetryApi, ToolCallTracer } from '../../lib/runtime/tool-call-tracer';
import type { OpenTelemetryApiLike, SpanLike } from '../../lib/runtime/tool-call-tracer';

class RecordingSpan implements SpanLike {
  readonly attributes: Record<string, unknown> = {};
  status: { code: number; message?: string } | undefined;
  ended = false;
  constructor(
    readonly name: string,
    private readonly recording: boolean,
  ) {}
  setAttribute(key: string, value: string | number | boolean): this {
    this.attributes[key] = value;
    return this;
  }
  setStatus(status: { code: number; message?: string }): this {
    this.status = status;
    return this;
  }
  isRecording(): boolean {
    return this.recording;
  }
  end(): void {
    this.ended = true;
  }
}

function fakeApi(recording: boolean, spans: RecordingSpan[]): OpenTelemetryApiLike {
  return {
    trace: {
      getTracer: () => ({
        startSpan: (name: string) => {
          const span = new RecordingSpan(name, recording);
          spans.push(span);
          return span;
        },
      }),
    },
  };
}

describe('loadOpenTelemetryApi', () => {
  describe('loadOpenTelemetryApi()', () => {
    it('returns the installed @opentelemetry/api', () => {
      expect(typeof loadOpenTelemetryApi()?.trace.getTracer).toBe('function');
    });

    it('returns null when the package is missing or not the API', () => {
      expect(
        loadOpenTelemetryApi(() => {
          throw new Error("Cannot find module '@opentelemetry/api'");
        }),
      ).toBeNull();
      expect(loadOpenTelemetryApi(() => ({}))).toBeNull();
    });
  });
});

describe('ToolCallTracer', () => {
  describe('start', () => {
    it('records tool name, ids, decision and outcome, but no arguments unless opted in', () => {
      const spans: RecordingSpan[] = [];
      const tracer = new ToolCallTracer({ api: fakeApi(true, spans) });
      const span = tracer.start(
        'book',
        () => 'call_1',
        () => 'run_1',
      );
      span?.setDecision('allow');
      span?.setArguments({ secret: 'x' });
      span?.end('success');
      expect(spans[0].name).toBe('execute_tool book');
      expect(spans[0].attributes).toEqual({
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'book',
        'gen_ai.tool.call.id': 'call_1',
        'protolink.run.id': 'run_1',
        'protolink.policy.decision': 'allow',
        'protolink.tool.outcome': 'success',
      });
      expect(spans[0].status).toEqual({ code: 1 });
      expect(spans[0].ended).toBe(true);
    });

    it('records arguments when opted in and the error class (never its message) on failure', () => {
      const spans: RecordingSpan[] = [];
      const tracer = new ToolCallTracer({ api: fakeApi(true, spans), recordArguments: true });
      const span = tracer.start(
        'book',
        () => 'call_2',
        () => 'run_2',
      );
      span?.setArguments({ guests: 2 });
      span?.end('denied', new RangeError('secret detail'));
      expect(spans[0].attributes['gen_ai.tool.call.arguments']).toBe('{"guests":2}');
      expect(spans[0].attributes['error.type']).toBe('RangeError');
      expect(spans[0].status).toEqual({ code: 2, message: 'RangeError' });
      expect(JSON.stringify(spans[0].attributes)).not.toContain('secret detail');
    });

    it('skips span creation entirely while the API reports its no-op provider, and starts once one is registered', () => {
      const spans: RecordingSpan[] = [];
      const noop = { name: 'noop' };
      let delegate: unknown = noop;
      const api: OpenTelemetryApiLike = {
        ...fakeApi(true, spans),
        ProxyTracerProvider: class {
          getDelegate(): unknown {
            return noop;
          }
        },
      };
      api.trace.getTracerProvider = () => ({ getDelegate: () => delegate });
      const tracer = new ToolCallTracer({ api });
      expect(tracer.active).toBe(false);
      expect(
        tracer.start(
          'x',
          () => 'c',
          () => 'r',
        ),
      ).toBeUndefined();
      expect(spans).toHaveLength(0);
      delegate = { name: 'registered' };
      expect(tracer.active).toBe(true);
      expect(
        tracer.start(
          'x',
          () => 'c',
          () => 'r',
        ),
      ).toBeDefined();
      expect(spans).toHaveLength(1);
    });

    it('reports the real @opentelemetry/api as inactive while no provider is registered', () => {
      expect(new ToolCallTracer().active).toBe(false);
      expect(new ToolCallTracer({ api: null }).active).toBe(false);
    });

    it('returns undefined when no tracer records or the API is disabled', () => {
      const spans: RecordingSpan[] = [];
      expect(
        new ToolCallTracer({ api: fakeApi(false, spans) }).start(
          'x',
          () => 'c',
          () => 'r',
        ),
      ).toBeUndefined();
      expect(spans[0].ended).toBe(true);
      expect(
        new ToolCallTracer({ api: null }).start(
          'x',
          () => 'c',
          () => 'r',
        ),
      ).toBeUndefined();
    });
  });
});
