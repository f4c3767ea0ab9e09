import { loadHtmlParser } from '../../runtime/lazy-require';
import { WEB_SEARCH_LIMITS } from './web-search-limits';

const SKIPPED_ELEMENTS = new Set(['script', 'style', 'template', 'noscript', 'head', 'title']);
const BREAKING_ELEMENTS = new Set([
  'br',
  'p',
  'div',
  'li',
  'ul',
  'ol',
  'tr',
  'td',
  'th',
  'table',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'pre',
  'hr',
  'section',
  'article',
]);

/**
 * Converts a small provider HTML fragment (a snippet with `<strong>` or `<span class="searchmatch">`
 * highlights) to plain text with entities decoded and whitespace not yet collapsed; a fragment longer than
 * `maxLength` (8000 by default) yields an empty string, so hostile markup stays bounded.
 */
export function htmlFragmentToText(
  fragment: string,
  maxLength: number = WEB_SEARCH_LIMITS.maxFragmentLength,
): string {
  if (fragment.length > maxLength) return '';
  if (!/[<&]/u.test(fragment)) return fragment;
  const parts: string[] = [];
  let skipped = 0;
  const parser = new (loadHtmlParser().Parser)(
    {
      onopentag(name) {
        if (SKIPPED_ELEMENTS.has(name)) skipped += 1;
        else if (BREAKING_ELEMENTS.has(name)) parts.push(' ');
      },
      onclosetag(name) {
        if (SKIPPED_ELEMENTS.has(name)) skipped = Math.max(0, skipped - 1);
        else if (BREAKING_ELEMENTS.has(name) && name !== 'br' && name !== 'hr') parts.push(' ');
      },
      ontext(text) {
        if (skipped === 0) parts.push(text);
      },
    },
    { decodeEntities: true },
  );
  parser.write(fragment);
  parser.end();
  return parts.join('');
}
