import { ToolInputError } from '../../lib/errors/tool-input-error';
import { AGENT_SERVER_DEFAULTS } from '../../lib/server/agent-server-options';
import { resolveAgentServerSettings } from '../../lib/server/resolve-agent-server-settings';

describe('resolveAgentServerSettings', () => {
  it('fills in the defaults, keeping the limits given', () => {
    expect(resolveAgentServerSettings({ maxSessions: 3, maxBodyBytes: undefined })).toEqual({
      sessionMode: 'stateful',
      sessionIdleTimeoutMs: AGENT_SERVER_DEFAULTS.sessionIdleTimeoutMs,
      maxSessions: 3,
      maxBodyBytes: AGENT_SERVER_DEFAULTS.maxBodyBytes,
      maxConcurrentCallsPerSession: AGENT_SERVER_DEFAULTS.maxConcurrentCallsPerSession,
    });
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
