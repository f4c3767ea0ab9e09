import { DUCKDUCKGO_ENDPOINT } from './build-duckduckgo-request';
import { hasForbiddenUrlCharacters, normalizeResultUrl } from './normalize-result-url';

const REDIRECT_HOSTS = new Set(['duckduckgo.com', 'www.duckduckgo.com', 'html.duckduckgo.com']);

/**
 * Turns the `href` of a DuckDuckGo result into the URL to return, or null when it must be dropped. Organic
 * redirect links (`//duckduckgo.com/l/?uddg=…` with exactly one `uddg`) are decoded locally, never followed;
 * sponsored click URLs are kept intact. Either way the URL is validated by {@link normalizeResultUrl}. Other
 * relative links (DuckDuckGo's own pages) are dropped.
 */
export function resolveDuckDuckGoLink(href: string, sponsored: boolean): string | null {
  const trimmed = href.replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/gu, '');
  if (trimmed === '' || hasForbiddenUrlCharacters(trimmed)) return null;
  let resolved: URL;
  try {
    resolved = new URL(trimmed, DUCKDUCKGO_ENDPOINT);
  } catch {
    return null;
  }
  const redirect = isRedirectLink(resolved);
  // A path-relative link points into DuckDuckGo itself (settings, feedback): never a search result.
  if (!redirect && !/^(?:https?:)?\/\//iu.test(trimmed)) return null;
  if (sponsored || !redirect) return normalizeResultUrl(resolved.href);
  const targets = resolved.searchParams.getAll('uddg');
  return targets.length === 1 ? normalizeResultUrl(targets[0]) : null;
}

function isRedirectLink(url: URL): boolean {
  return (
    (url.protocol === 'https:' || url.protocol === 'http:') &&
    REDIRECT_HOSTS.has(url.hostname) &&
    (url.pathname === '/l/' || url.pathname === '/l')
  );
}
