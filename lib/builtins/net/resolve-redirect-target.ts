import { ToolRuntimeError } from '../../errors/tool-runtime-error';
import { buildUnsafeUrlError } from './build-unsafe-url-error';
import { parseSafeUrl } from './parse-safe-url';

/** HTTP statuses that carry a redirect the safe layer may follow. */
export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** Options of {@link resolveRedirectTarget}. */
export interface ResolveRedirectTargetOptions {
  /** The redirect status (named in messages). */
  status: number;
  /** Every URL requested so far (without fragments), to detect loops. */
  visited: ReadonlySet<string>;
  /** Longest accepted URL. */
  maxUrlLength: number;
  /** The tool named in error messages. */
  toolName?: string;
  /** The provider named in runtime errors. */
  provider?: string;
}

/**
 * Resolves a `Location` header against the current URL and validates the target exactly like a first URL
 * (raw rules, parse, scheme, credentials, port, names, IP literals), refusing an HTTPS → HTTP downgrade
 * and a URL that was already requested (a loop). Its addresses are validated when it is connected to.
 *
 * @throws UnsafeUrlError for an unsafe target or a downgrade.
 * @throws ToolRuntimeError for a missing `Location` or a loop.
 */
export function resolveRedirectTarget(
  current: URL,
  location: string | undefined,
  options: ResolveRedirectTargetOptions,
): URL {
  const prefix = options.toolName === undefined ? '' : `${options.toolName}: `;
  if (location === undefined || location.trim() === '') {
    throw new ToolRuntimeError(
      `${prefix}${current.href} answered with a redirect (HTTP ${options.status}) but no Location header.`,
      { toolName: options.toolName, provider: options.provider, status: options.status },
    );
  }
  if (/[\s\u0000-\u001f\u007f-\u009f\\]/u.test(location)) {
    throw buildUnsafeUrlError(
      location,
      'the redirect Location contains whitespace, control characters or a backslash',
      'malformed URL',
      {
        toolName: options.toolName,
      },
    );
  }
  let absolute: string;
  try {
    absolute = new URL(location, current).href;
  } catch (error) {
    throw buildUnsafeUrlError(location, 'the redirect Location cannot be parsed', 'malformed URL', {
      toolName: options.toolName,
      cause: error,
    });
  }
  const target = parseSafeUrl(absolute, { maxLength: options.maxUrlLength, toolName: options.toolName });
  if (current.protocol === 'https:' && target.protocol === 'http:') {
    throw buildUnsafeUrlError(
      target.href,
      `the redirect from ${current.href} downgrades HTTPS to HTTP`,
      'redirect downgrade',
      {
        toolName: options.toolName,
      },
    );
  }
  if (options.visited.has(target.href)) {
    throw new ToolRuntimeError(`${prefix}redirect loop: ${current.href} redirects back to ${target.href}.`, {
      toolName: options.toolName,
      provider: options.provider,
      status: options.status,
    });
  }
  return target;
}
