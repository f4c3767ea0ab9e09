import { ToolInputError } from '../errors/tool-input-error';
import { AGENT_SERVER_DEFAULTS } from '../agents/agent-server-options';
import type { AgentServerOptions } from '../agents/agent-server-options';
import { MAX_TIMER_MS } from '../state/memory/in-memory-event-store';

/** The serving limits, defaults filled in. */
export interface AgentServerSettings {
  readonly sessionMode: 'stateful' | 'stateless';
  readonly sessionIdleTimeoutMs: number;
  readonly maxSessions: number;
  readonly maxSessionsPerClient: number;
  readonly maxBodyBytes: number;
  readonly maxConcurrentCallsPerSession: number;
  readonly maxConcurrentStatelessCalls: number;
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly keepAliveTimeoutMs: number;
  readonly maxConnections: number;
  readonly maxEventStoreBytesPerSession: number;
  readonly maxEventStoreBytes: number;
  readonly eventStoreResumeWindowMs: number;
  readonly maxGetStreamsPerSession: number;
}

/**
 * Fills in the defaults of the serving limits and checks them.
 *
 * @throws ToolInputError for a limit that is not a positive number (an event-store byte bound: not a whole
 * number of at least 1), an `eventStoreResumeWindowMs` longer than a timer can wait, a `requestTimeoutMs`
 * shorter than `headersTimeoutMs`, an unknown `sessionMode`, or a `token` that is empty or only whitespace
 * (it would silently turn authentication off).
 */
export function resolveAgentServerSettings(
  options: Omit<AgentServerOptions, 'url' | 'allowNonLoopback'>,
): AgentServerSettings {
  assertToken(options.token);
  const settings = {
    ...AGENT_SERVER_DEFAULTS,
    eventStoreResumeWindowMs: defaultResumeWindowMs(options.sseRetryMs),
    ...definedOnly(options),
  };
  assertPositive('maxBodyBytes', settings.maxBodyBytes);
  assertPositive('maxSessions', settings.maxSessions);
  assertPositive('maxSessionsPerClient', settings.maxSessionsPerClient);
  assertPositive('sessionIdleTimeoutMs', settings.sessionIdleTimeoutMs);
  assertPositive('maxConcurrentCallsPerSession', settings.maxConcurrentCallsPerSession);
  assertPositive('maxConcurrentStatelessCalls', settings.maxConcurrentStatelessCalls);
  assertPositive('headersTimeoutMs', settings.headersTimeoutMs);
  assertPositive('requestTimeoutMs', settings.requestTimeoutMs);
  assertPositive('keepAliveTimeoutMs', settings.keepAliveTimeoutMs);
  assertPositive('maxConnections', settings.maxConnections);
  assertWholeNumber('maxEventStoreBytesPerSession', settings.maxEventStoreBytesPerSession);
  assertWholeNumber('maxEventStoreBytes', settings.maxEventStoreBytes);
  assertPositive('eventStoreResumeWindowMs', settings.eventStoreResumeWindowMs);
  if (settings.eventStoreResumeWindowMs > MAX_TIMER_MS) {
    throw new ToolInputError(
      `eventStoreResumeWindowMs must be at most ${MAX_TIMER_MS} (about 24.8 days, the longest a timer waits), got ${settings.eventStoreResumeWindowMs}.`,
    );
  }
  const maxGetStreamsPerSession =
    settings.maxGetStreamsPerSession ?? settings.maxConcurrentCallsPerSession + 1;
  assertPositive('maxGetStreamsPerSession', maxGetStreamsPerSession);
  if (settings.requestTimeoutMs < settings.headersTimeoutMs) {
    throw new ToolInputError(
      `requestTimeoutMs (${settings.requestTimeoutMs}) must be at least headersTimeoutMs (${settings.headersTimeoutMs}): the whole request includes its headers.`,
    );
  }
  if (settings.sessionMode !== 'stateful' && settings.sessionMode !== 'stateless') {
    throw new ToolInputError(
      `sessionMode must be 'stateful' or 'stateless', got '${String(settings.sessionMode)}'.`,
    );
  }
  return {
    sessionMode: settings.sessionMode,
    sessionIdleTimeoutMs: settings.sessionIdleTimeoutMs,
    maxSessions: settings.maxSessions,
    maxSessionsPerClient: settings.maxSessionsPerClient,
    maxBodyBytes: settings.maxBodyBytes,
    maxConcurrentCallsPerSession: settings.maxConcurrentCallsPerSession,
    maxConcurrentStatelessCalls: settings.maxConcurrentStatelessCalls,
    headersTimeoutMs: settings.headersTimeoutMs,
    requestTimeoutMs: settings.requestTimeoutMs,
    keepAliveTimeoutMs: settings.keepAliveTimeoutMs,
    maxConnections: settings.maxConnections,
    maxEventStoreBytesPerSession: settings.maxEventStoreBytesPerSession,
    maxEventStoreBytes: settings.maxEventStoreBytes,
    eventStoreResumeWindowMs: settings.eventStoreResumeWindowMs,
    maxGetStreamsPerSession,
  };
}

/** 30 s, or twice a longer SSE retry delay: a polling client comes back after that delay to fetch its result. */
function defaultResumeWindowMs(sseRetryMs: unknown): number {
  const retry =
    typeof sseRetryMs === 'number' && Number.isSafeInteger(sseRetryMs) && sseRetryMs > 0 ? sseRetryMs : 0;
  return Math.min(MAX_TIMER_MS, Math.max(AGENT_SERVER_DEFAULTS.eventStoreResumeWindowMs, 2 * retry));
}

function assertToken(token: unknown): void {
  if (token === undefined || token === null) return;
  if (typeof token !== 'string' || token.trim() === '') {
    throw new ToolInputError(
      'token must be a non-empty string: an empty token would turn authentication off. ' +
        'Pass a real secret, or leave token out (null/undefined) to serve without one.',
    );
  }
}

function assertPositive(name: string, value: number): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new ToolInputError(`${name} must be a positive number, got ${String(value)}.`);
  }
}

function assertWholeNumber(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new ToolInputError(`${name} must be a whole number of at least 1, got ${String(value)}.`);
  }
}

function definedOnly<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<T>;
}
