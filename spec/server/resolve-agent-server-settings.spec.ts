import { ToolInputError } from '../../lib/errors/tool-input-error';
import { AGENT_SERVER_DEFAULTS } from '../../lib/agents/agent-server-options';
import { resolveAgentServerSettings } from '../../lib/server/resolve-agent-server-settings';

describe('resolveAgentServerSettings', () => {
  it('fills in the defaults, keeping the limits given', () => {
    expect(resolveAgentServerSettings({ maxSessions: 3, maxBodyBytes: undefined })).toEqual({
      sessionMode: 'stateful',
      sessionIdleTimeoutMs: AGENT_SERVER_DEFAULTS.sessionIdleTimeoutMs,
      maxSessions: 3,
      maxSessionsPerClient: 100,
      maxBodyBytes: AGENT_SERVER_DEFAULTS.maxBodyBytes,
      maxConcurrentCallsPerSession: AGENT_SERVER_DEFAULTS.maxConcurrentCallsPerSession,
      maxConcurrentStatelessCalls: 64,
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
      maxConnections: 2048,
      maxEventStoreBytesPerSession: 8 * 1024 * 1024,
      maxEventStoreBytes: 64 * 1024 * 1024,
      eventStoreResumeWindowMs: 30_000,
      maxGetStreamsPerSession: AGENT_SERVER_DEFAULTS.maxConcurrentCallsPerSession + 1,
    });
  });

  describe('event store and GET stream limits', () => {
    it('keeps the limits given', () => {
      expect(
        resolveAgentServerSettings({
          maxEventStoreBytesPerSession: 1_000,
          maxEventStoreBytes: 5_000,
          eventStoreResumeWindowMs: 50,
          maxGetStreamsPerSession: 4,
        }),
      ).toEqual(
        expect.objectContaining({
          maxEventStoreBytesPerSession: 1_000,
          maxEventStoreBytes: 5_000,
          eventStoreResumeWindowMs: 50,
          maxGetStreamsPerSession: 4,
        }),
      );
    });

    it('allows one GET stream per call that may run, plus the notification stream, by default', () => {
      expect(resolveAgentServerSettings({ maxConcurrentCallsPerSession: 3 }).maxGetStreamsPerSession).toBe(4);
    });

    it('keeps a finished call resumable for twice a longer SSE retry delay by default', () => {
      expect(resolveAgentServerSettings({ sseRetryMs: 1_000 }).eventStoreResumeWindowMs).toBe(30_000);
      expect(resolveAgentServerSettings({ sseRetryMs: 20_000 }).eventStoreResumeWindowMs).toBe(40_000);
      expect(
        resolveAgentServerSettings({ sseRetryMs: 20_000, eventStoreResumeWindowMs: 5_000 })
          .eventStoreResumeWindowMs,
      ).toBe(5_000);
    });

    it.each([-1, 0, 1.5, Number.NaN, Number.POSITIVE_INFINITY])(
      'refuses an event-store byte bound of %p',
      (value) => {
        for (const name of ['maxEventStoreBytesPerSession', 'maxEventStoreBytes'] as const) {
          expect(() => resolveAgentServerSettings({ [name]: value })).toThrow(
            new ToolInputError(`${name} must be a whole number of at least 1, got ${String(value)}.`),
          );
        }
      },
    );

    it.each([-1, 0, Number.NaN])('refuses a resume window or GET stream cap of %p', (value) => {
      for (const name of ['eventStoreResumeWindowMs', 'maxGetStreamsPerSession'] as const) {
        expect(() => resolveAgentServerSettings({ [name]: value })).toThrow(
          new ToolInputError(`${name} must be a positive number, got ${String(value)}.`),
        );
      }
    });

    it('refuses a resume window longer than a timer can wait', () => {
      expect(() => resolveAgentServerSettings({ eventStoreResumeWindowMs: 2 ** 31 })).toThrow(
        new ToolInputError(
          'eventStoreResumeWindowMs must be at most 2147483647 (about 24.8 days, the longest a timer waits), got 2147483648.',
        ),
      );
    });
  });

  it('refuses each slow-client and connection limit that is not a positive number', () => {
    for (const name of [
      'maxSessionsPerClient',
      'maxConcurrentStatelessCalls',
      'headersTimeoutMs',
      'requestTimeoutMs',
      'keepAliveTimeoutMs',
      'maxConnections',
    ] as const) {
      expect(() => resolveAgentServerSettings({ [name]: 0 })).toThrow(
        new ToolInputError(`${name} must be a positive number, got 0.`),
      );
    }
  });

  it('refuses a request time limit shorter than the header time limit', () => {
    expect(() => resolveAgentServerSettings({ headersTimeoutMs: 2000, requestTimeoutMs: 1000 })).toThrow(
      new ToolInputError(
        'requestTimeoutMs (1000) must be at least headersTimeoutMs (2000): the whole request includes its headers.',
      ),
    );
    expect(() =>
      resolveAgentServerSettings({ headersTimeoutMs: 1000, requestTimeoutMs: 1000 }),
    ).not.toThrow();
  });

  it('refuses a limit that is not a positive number with a ToolInputError', () => {
    expect(() => resolveAgentServerSettings({ sessionIdleTimeoutMs: -1 })).toThrow(
      new ToolInputError('sessionIdleTimeoutMs must be a positive number, got -1.'),
    );
    expect(() => resolveAgentServerSettings({ maxConcurrentCallsPerSession: Number.NaN })).toThrow(
      ToolInputError,
    );
  });

  it('refuses an empty or blank token, and accepts a real one or none', () => {
    expect(() => resolveAgentServerSettings({ token: '' })).toThrow(
      new ToolInputError(
        'token must be a non-empty string: an empty token would turn authentication off. Pass a real secret, or leave token out (null/undefined) to serve without one.',
      ),
    );
    expect(() => resolveAgentServerSettings({ token: ' ' })).toThrow(ToolInputError);
    expect(() => resolveAgentServerSettings({ token: 'secret' })).not.toThrow();
    expect(() => resolveAgentServerSettings({ token: null })).not.toThrow();
  });

  it('refuses an unknown session mode', () => {
    expect(() => resolveAgentServerSettings({ sessionMode: 'sticky' as never })).toThrow(
      new ToolInputError("sessionMode must be 'stateful' or 'stateless', got 'sticky'."),
    );
  });
});
