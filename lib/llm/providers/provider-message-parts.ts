import { ToolRuntimeError } from '../../errors/tool-runtime-error';
import { providerLabel } from './post-provider-json';

/** Returns tool-call arguments as an object for providers that send objects (a bad JSON string → `{}`). */
export function toArgumentsObject(args: string | Record<string, unknown>): Record<string, unknown> {
  if (typeof args !== 'string') return args;
  try {
    const parsed: unknown = JSON.parse(args);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** Returns tool-call arguments as a JSON string for providers that send strings. */
export function toArgumentsString(args: string | Record<string, unknown>): string {
  return typeof args === 'string' ? args : JSON.stringify(args);
}

/** Returns a tool result's text as a JSON object (Gemini function responses must be objects). */
export function toResultObject(content: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(content);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
    return { result: parsed };
  } catch {
    return { result: content };
  }
}

/** Reads a non-negative token count, or 0. */
export function readCount(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}

/**
 * Builds the error for a 2xx body that lacks what the provider's API documents.
 */
export function malformedResponse(provider: string, what: string): ToolRuntimeError {
  return new ToolRuntimeError(
    `${providerLabel(provider)} answered without ${what}; the response does not match its API.`,
    {
      provider,
      retryable: false,
    },
  );
}

/** Whether a value is a plain object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Joins the system messages' text, or returns undefined when there are none. */
export function joinSystemText(messages: readonly { role: string; content: unknown }[]): string | undefined {
  const parts = messages
    .filter((message) => message.role === 'system')
    .map((message) => String(message.content));
  return parts.length ? parts.join('\n\n') : undefined;
}
