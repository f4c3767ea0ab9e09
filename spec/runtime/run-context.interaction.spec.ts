import { ToolInputError } from '../../lib/errors/tool-input-error';
import { ToolRuntimeError } from '../../lib/errors/tool-runtime-error';
import { RunContext } from '../../lib/runtime/run-context';
import type {
  ElicitationSchemaInput,
  SamplingRequest,
  ToolCallChannel,
  ToolLogLevel,
} from '../../lib/runtime/tool-call-channel';
import { isToolLogLevel, TOOL_LOG_LEVELS } from '../../lib/runtime/tool-call-channel';
import { attachToolCallChannel, runInToolCallScope } from '../../lib/runtime/tool-call-scope';

/** A channel that records what reaches it (the serving and agent layers have real ones, tested elsewhere). */
class RecordingChannel implements ToolCallChannel {
  readonly calls: unknown[][] = [];

  constructor(
    private readonly name: string,
    private readonly closable = false,
  ) {}

  async progress(progress: number, total: number | undefined, message: string | undefined): Promise<void> {
    this.calls.push(['progress', progress, total, message]);
  }

  async log(level: ToolLogLevel, data: unknown, logger: string | undefined): Promise<void> {
    this.calls.push(['log', level, data, logger]);
  }

  async elicit(message: string, schema: ElicitationSchemaInput, signal: AbortSignal) {
    this.calls.push(['elicit', message, schema, signal]);
    return { action: 'accept' as const, content: { from: this.name } };
  }

  async sample(request: SamplingRequest, signal: AbortSignal) {
    this.calls.push(['sample', request, signal]);
    return { role: 'assistant' as const, content: { type: 'text' as const, text: this.name }, model: 'm' };
  }

  canElicit(): boolean {
    return true;
  }

  closeStream(): boolean {
    this.calls.push(['closeStream']);
    return this.closable;
  }
}

const SCHEMA = { type: 'object', properties: { name: { type: 'string' } } };
const REQUEST: SamplingRequest = {
  messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
  maxTokens: 10,
};

describe('RunContext: a tool talking to its caller', () => {
  describe('argument checks', () => {
    const context = new RunContext();

    it.each([
      [Number.NaN, undefined, /reportProgress\(progress, total\?\) takes finite numbers, got NaN\./],
      [Number.POSITIVE_INFINITY, undefined, /got Infinity\./],
      ['5' as unknown as number, undefined, /got 5\./],
      [1, Number.NaN, /got 1 and NaN\./],
      [1, '10' as unknown as number, /got 1 and 10\./],
    ])('reportProgress(%p, %p) → ToolInputError', async (progress, total, message) => {
      const failure = context.reportProgress(progress, total);
      await expect(failure).rejects.toBeInstanceOf(ToolInputError);
      await expect(failure).rejects.toThrow(message);
    });

    it('reportProgress refuses a message that is not a string', async () => {
      const failure = context.reportProgress(1, 2, 42 as unknown as string);
      await expect(failure).rejects.toBeInstanceOf(ToolInputError);
      await expect(failure).rejects.toThrow(
        'reportProgress(progress, total?, message?): message must be a string.',
      );
    });

    it.each(['verbose', 'INFO', '', 3, undefined])(
      'log(%p) → ToolInputError listing the levels',
      async (level) => {
        const failure = context.log(level as ToolLogLevel, 'x');
        await expect(failure).rejects.toBeInstanceOf(ToolInputError);
        await expect(failure).rejects.toThrow(
          `log(level, data): level must be one of debug, info, notice, warning, error, critical, alert, emergency; got ${JSON.stringify(level)}.`,
        );
      },
    );

    it.each(['', '   ', 7, undefined])('elicit(%p, schema) → ToolInputError', async (message) => {
      const failure = context.elicit(message as string, SCHEMA);
      await expect(failure).rejects.toBeInstanceOf(ToolInputError);
      await expect(failure).rejects.toThrow(
        'elicit(message, schema): message must be a non-empty string shown to the user.',
      );
    });

    it.each([null, 'hello', {}, { messages: 'hi', maxTokens: 5 }])(
      'sample(%p) → ToolInputError naming the shape',
      async (request) => {
        const failure = context.sample(request as unknown as SamplingRequest);
        await expect(failure).rejects.toBeInstanceOf(ToolInputError);
        await expect(failure).rejects.toThrow(
          'sample(request) needs { messages: [{ role, content }], maxTokens }.',
        );
      },
    );

    it.each([0, -1, 1.5, Number.NaN, undefined, '10'])(
      'sample with maxTokens %p → ToolInputError',
      async (maxTokens) => {
        const failure = context.sample({ messages: [], maxTokens: maxTokens as number });
        await expect(failure).rejects.toBeInstanceOf(ToolInputError);
        await expect(failure).rejects.toThrow(
          `sample(request): maxTokens must be a whole number of at least 1, got ${String(maxTokens)}.`,
        );
      },
    );

    it('checks arguments before looking for a channel (a channel never sees a bad call)', async () => {
      const channel = new RecordingChannel('attached');
      const served = new RunContext();
      attachToolCallChannel(served, channel);
      await expect(served.reportProgress(Number.NaN)).rejects.toBeInstanceOf(ToolInputError);
      await expect(served.log('loud' as ToolLogLevel, 'x')).rejects.toBeInstanceOf(ToolInputError);
      await expect(served.elicit('', SCHEMA)).rejects.toBeInstanceOf(ToolInputError);
      await expect(served.sample({ messages: [], maxTokens: 0 })).rejects.toBeInstanceOf(ToolInputError);
      expect(channel.calls).toEqual([]);
    });

    it('knows the eight RFC 5424 levels, least severe first', () => {
      expect(TOOL_LOG_LEVELS).toEqual([
        'debug',
        'info',
        'notice',
        'warning',
        'error',
        'critical',
        'alert',
        'emergency',
      ]);
      expect(TOOL_LOG_LEVELS.every(isToolLogLevel)).toBe(true);
      expect([isToolLogLevel('warn'), isToolLogLevel(1), isToolLogLevel(null)]).toEqual([
        false,
        false,
        false,
      ]);
    });
  });

  describe('without a channel', () => {
    const context = new RunContext();

    it('reportProgress and log are no-ops that resolve', async () => {
      await expect(context.reportProgress(1, 2, 'half')).resolves.toBeUndefined();
      await expect(context.reportProgress(3)).resolves.toBeUndefined();
      for (const level of TOOL_LOG_LEVELS)
        await expect(context.log(level, { n: 1 }, 'l')).resolves.toBeUndefined();
    });

    it('closeSSEStream returns false', () => {
      expect(context.closeSSEStream()).toBe(false);
    });

    it('elicit rejects with a ToolRuntimeError naming elicitationHandler and the elicitation capability', async () => {
      const failure = context.elicit('Your name?', SCHEMA);
      await expect(failure).rejects.toBeInstanceOf(ToolRuntimeError);
      await expect(failure).rejects.toMatchObject({
        code: 'TOOL_RUNTIME',
        message:
          'context.elicit() has nobody to answer: give the Agent an elicitationHandler for in-process calls, or serve the tool to an MCP client that declares the elicitation capability.',
      });
    });

    it('sample rejects with a ToolRuntimeError naming samplingHandler and the sampling capability', async () => {
      const failure = context.sample(REQUEST);
      await expect(failure).rejects.toBeInstanceOf(ToolRuntimeError);
      await expect(failure).rejects.toMatchObject({
        code: 'TOOL_RUNTIME',
        message:
          'context.sample() has nobody to answer: give the Agent a samplingHandler for in-process calls, or serve the tool to an MCP client that declares the sampling capability.',
      });
    });
  });

  describe('with a channel', () => {
    it('forwards every method to a channel attached to the context, with the context signal', async () => {
      const channel = new RecordingChannel('attached', true);
      const context = new RunContext();
      attachToolCallChannel(context, channel);
      await context.reportProgress(1, 4, 'a quarter');
      await context.reportProgress(2);
      await context.log('warning', { disk: 'full' }, 'disk');
      await context.log('debug', 'plain');
      await expect(context.elicit('Name?', SCHEMA)).resolves.toEqual({
        action: 'accept',
        content: { from: 'attached' },
      });
      await expect(context.sample(REQUEST)).resolves.toMatchObject({ content: { text: 'attached' } });
      expect(context.closeSSEStream()).toBe(true);
      expect(channel.calls).toEqual([
        ['progress', 1, 4, 'a quarter'],
        ['progress', 2, undefined, undefined],
        ['log', 'warning', { disk: 'full' }, 'disk'],
        ['log', 'debug', 'plain', undefined],
        ['elicit', 'Name?', SCHEMA, context.signal],
        ['sample', REQUEST, context.signal],
        ['closeStream'],
      ]);
    });

    it('children of a served context report to the channel attached to their ancestor', async () => {
      const channel = new RecordingChannel('parent');
      const parent = new RunContext();
      attachToolCallChannel(parent, channel);
      const grandchild = parent.child().child();
      await grandchild.log('info', 'deep');
      await expect(grandchild.elicit('Name?', SCHEMA)).resolves.toMatchObject({
        content: { from: 'parent' },
      });
      expect(channel.calls[0]).toEqual(['log', 'info', 'deep', undefined]);
      expect(channel.calls[1][3]).toBe(grandchild.signal);
    });

    it('uses the call scope of the async flow when nothing is attached, and the attached channel first', async () => {
      const scoped = new RecordingChannel('scope');
      const attached = new RecordingChannel('attached');
      const plain = new RunContext();
      const served = new RunContext();
      attachToolCallChannel(served, attached);
      await runInToolCallScope(scoped, async () => {
        await new Promise((resolve) => setImmediate(resolve));
        await plain.reportProgress(5, 10);
        await expect(plain.sample(REQUEST)).resolves.toMatchObject({ content: { text: 'scope' } });
        await served.reportProgress(6, 10);
      });
      expect(scoped.calls.map((call) => call.slice(0, 2))).toEqual([
        ['progress', 5],
        ['sample', REQUEST],
      ]);
      expect(attached.calls).toEqual([['progress', 6, 10, undefined]]);
      // Outside the scope, the plain context has nobody again.
      await expect(plain.elicit('Name?', SCHEMA)).rejects.toBeInstanceOf(ToolRuntimeError);
    });
  });
});
