import { ToolDefinitionError } from '../errors/tool-definition-error';
import { redactUrl } from '../mcp/client/redact-url';

/**
 * Checks the `publicUrl` option (the URL clients use behind a reverse proxy or load balancer) and returns it
 * parsed, or undefined when it is not given.
 *
 * @throws ToolDefinitionError naming the option when it is not an absolute http:// or https:// URL, or
 * carries credentials, a query or a fragment (the message never shows a password).
 */
export function parsePublicUrl(publicUrl: unknown): URL | undefined {
  if (publicUrl === undefined) return undefined;
  const advice = 'Give the base URL clients use, e.g. https://agent.example.com.';
  if (typeof publicUrl !== 'string') {
    throw new ToolDefinitionError(`publicUrl must be a URL string, got ${typeof publicUrl}. ${advice}`);
  }
  let parsed: URL;
  try {
    parsed = new URL(publicUrl);
  } catch (error) {
    throw new ToolDefinitionError(`publicUrl '${publicUrl.slice(0, 200)}' is not a URL. ${advice}`, {
      cause: error,
    });
  }
  const shown = redactUrl(parsed);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ToolDefinitionError(`publicUrl must be an http:// or https:// URL, got '${shown}'. ${advice}`);
  }
  if (parsed.username || parsed.password) {
    throw new ToolDefinitionError(
      `publicUrl must not carry credentials (user:password@), got '${shown}': it is advertised on the agent card.`,
    );
  }
  if (parsed.search || parsed.hash || publicUrl.includes('?') || publicUrl.includes('#')) {
    throw new ToolDefinitionError(
      `publicUrl must not have a query or a fragment, got '${shown.split(/[?#]/)[0]}?…'. ${advice}`,
    );
  }
  return parsed;
}
