import 'reflect-metadata';
import { trace } from '@opentelemetry/api';
import type { Span, SpanContext, SpanOptions, Tracer, TracerProvider } from '@opentelemetry/api';
import { Agent } from '../../lib/agents/agent';
import { CapabilityPolicy } from '../../lib/policy/capability-policy';

/** A minimal recording span, registered through the real @opentelemetry/api global provider. */
class RecordedSpan {
  readonly attributes: Record<string, unknown> = {};
  status: { code: number; message?: string } | undefined;
  ended = false;
  constructor(readonly name: string) {}
  spanContext(): SpanContext {
    return { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: 1 };
  }
  setAttribute(key: string, value: unknown): this {
    this.attributes[key] = value;
    return this;
  }
  setAttributes(attributes: Record<string, unknown>): this {
    Object.assign(this.attributes, attributes);
    return this;
  }
  addEvent(): this {
    return this;
  }
  addLink(): this {
    return this;
  }
  addLinks(): this {
    return this;
  }
  setStatus(status: { code: number; message?: string }): this {
    this.status = status;
    return this;
  }
  updateName(): this {
    return this;
  }
  end(): void {
    this.ended = true;
  }
  isRecording(): boolean {
    return true;
  }
  recordException(): void {}
}

describe('Agent telemetry with @opentelemetry/api (integration)', () => {
  const spans: RecordedSpan[] = [];
  const tracer = {
    startSpan: (name: string, _options?: SpanOptions) => {
      const span = new RecordedSpan(name);
      spans.push(span);
      return span as unknown as Span;
    },
    startActiveSpan: () => {
      throw new Error('not used');
    },
  } as unknown as Tracer;
  const provider: TracerProvider = { getTracer: () => tracer };

  beforeAll(() => {
    trace.setGlobalTracerProvider(provider);
  });

  afterAll(() => {
    trace.disable();
  });

  it('records one span per call through the globally registered tracer, without argument values', async () => {
    // No telemetry option: the agent loads @opentelemetry/api itself (a guarded require).
    const agent = new Agent({
      card: { name: 'traced', description: 'Traced', url: 'runtime://traced' },
      policy: new CapabilityPolicy({ 'mail.send': 'deny' }),
    });
    agent.tool(
      { name: 'echo', description: 'Echo', inputSchema: { text: 'str' } },
      (args: Record<string, unknown>) => args.text,
    );
    agent.tool({ name: 'send_mail', description: 'Send', capabilities: ['mail.send'] }, () => 'sent');
    await agent.callTool('echo', { text: 'confidential' });
    await agent.callTool('send_mail').catch(() => undefined);
    await agent.callTool('nope').catch(() => undefined);
    expect(
      spans.map((span) => [
        span.name,
        span.attributes['protolink.policy.decision'],
        span.attributes['protolink.tool.outcome'],
        span.ended,
      ]),
    ).toEqual([
      ['execute_tool echo', 'allow', 'success', true],
      ['execute_tool send_mail', 'deny', 'denied', true],
      ['execute_tool nope', undefined, 'not_found', true],
    ]);
    expect(spans[1].status).toEqual({ code: 2, message: 'ActionDeniedError' });
    expect(JSON.stringify(spans.map((span) => span.attributes))).not.toContain('confidential');
  });
});
