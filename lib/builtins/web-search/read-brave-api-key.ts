import { ToolInputError } from '../../errors/tool-input-error';
import { WEB_SEARCH_LIMITS } from './web-search-limits';
import { WEB_SEARCH_TOOL_NAME } from './web-search-types';

/** The environment variable that holds the Brave Search API key. */
export const BRAVE_API_KEY_VARIABLE = 'BRAVE_SEARCH_API_KEY';

/**
 * Reads the Brave Search API key from `process.env` at call time (never cached, never logged); the key is
 * trimmed and must be 1–512 printable ASCII characters without spaces.
 *
 * @throws ToolInputError naming `BRAVE_SEARCH_API_KEY` when it is missing, empty or malformed; the message
 * never contains the key.
 */
export function readBraveApiKey(): string {
  const raw = process.env[BRAVE_API_KEY_VARIABLE];
  const key = typeof raw === 'string' ? raw.trim() : '';
  if (key.length === 0) {
    throw new ToolInputError(
      `${WEB_SEARCH_TOOL_NAME}: engine 'brave' needs an API key in the environment variable ${BRAVE_API_KEY_VARIABLE}, ` +
        "which is not set. Set it, or choose engine 'wikipedia' or 'duckduckgo' explicitly (there is no automatic fallback).",
      { toolName: WEB_SEARCH_TOOL_NAME },
    );
  }
  if (key.length > WEB_SEARCH_LIMITS.maxApiKeyLength || !/^[\x21-\x7e]+$/u.test(key)) {
    throw new ToolInputError(
      `${WEB_SEARCH_TOOL_NAME}: the environment variable ${BRAVE_API_KEY_VARIABLE} contains invalid characters ` +
        `(a Brave key is at most ${WEB_SEARCH_LIMITS.maxApiKeyLength} printable ASCII characters without spaces). ` +
        'Copy the key again from the Brave Search API dashboard.',
      { toolName: WEB_SEARCH_TOOL_NAME },
    );
  }
  return key;
}
