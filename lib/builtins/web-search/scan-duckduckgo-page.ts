import { ToolRuntimeError } from '../../errors/tool-runtime-error';
import { MAX_HTML_NESTING_DEPTH } from '../html-nesting-limit';
import { loadHtmlParser } from '../../runtime/lazy-require';
import { WEB_SEARCH_LIMITS } from './web-search-limits';

/** One result container found on a DuckDuckGo HTML page, before its URL is resolved. */
export interface DuckDuckGoCandidate {
  /** Text of the `a.result__a` title link (entities decoded, at most 1000 characters). */
  title: string;
  /** The `href` of the title link, or null when the container has no title link. */
  href: string | null;
  /** Text of the `.result__snippet` element (at most 4000 characters). */
  snippet: string;
  /** Whether an ad class marks the container (or something inside it). */
  sponsored: boolean;
  /** Whether the container is DuckDuckGo's `result--no-result` marker rather than a result. */
  noResult: boolean;
}

/** What {@link scanDuckDuckGoPage} found on a page. */
export interface DuckDuckGoPageScan {
  /** Result containers in page order. */
  candidates: DuckDuckGoCandidate[];
  /** A human-verification (anomaly) challenge marker was present. */
  challenge: boolean;
  /** An explicit no-results marker was present. */
  noResultsMarker: boolean;
  /** A "Next" button or `result--more` marker was present. */
  moreMarker: boolean;
  /** A result container was still open when its markup ended (truncated or broken page). */
  incomplete: boolean;
}

const AD_CLASSES = new Set(['badge--ad', 'result--ad', 'result__badge--ad', 'results--ads']);
const SKIPPED_ELEMENTS = new Set(['script', 'style', 'template', 'noscript']);
type FrameRole = 'result' | 'title' | 'snippet' | 'skip' | null;

/**
 * Reads a DuckDuckGo HTML search page with htmlparser2 (a real, forgiving HTML parser) in one streaming
 * pass: result containers (`div.result.web-result`, or `div.result` with an ad class), their title link
 * and snippet, and the page-level markers for challenges, no results and more results. Work and memory are
 * linear in the page size.
 */
export function scanDuckDuckGoPage(html: string): DuckDuckGoPageScan {
  const scan: DuckDuckGoPageScan = {
    candidates: [],
    challenge: false,
    noResultsMarker: false,
    moreMarker: false,
    incomplete: false,
  };
  const frames: FrameRole[] = [];
  let current: DuckDuckGoCandidate | null = null;
  let titleDepth = 0;
  let snippetDepth = 0;
  let skipDepth = 0;
  let outsideText = '';
  // Only a container still open when the input runs out is "incomplete"; one closed implicitly by its
  // parent's end tag is ordinary sloppy HTML.
  let atEndOfInput = false;

  const append = (text: string): void => {
    if (current === null) return;
    if (titleDepth > 0 && current.title.length < WEB_SEARCH_LIMITS.maxRawTitleLength) {
      current.title = (current.title + text).slice(0, WEB_SEARCH_LIMITS.maxRawTitleLength);
    }
    if (snippetDepth > 0 && current.snippet.length < WEB_SEARCH_LIMITS.maxRawSnippetLength) {
      current.snippet = (current.snippet + text).slice(0, WEB_SEARCH_LIMITS.maxRawSnippetLength);
    }
  };

  const parser = new (loadHtmlParser().Parser)(
    {
      onopentag(name, attributes) {
        if (frames.length >= MAX_HTML_NESTING_DEPTH) {
          throw new ToolRuntimeError(
            `the page nests HTML elements more than ${MAX_HTML_NESTING_DEPTH} levels deep, so it is not read.`,
            { provider: 'duckduckgo', toolName: 'web_search' },
          );
        }
        outsideText = '';
        const classes = (attributes.class ?? '').split(/[\t\n\f\r ]+/u).filter((item) => item !== '');
        markPage(scan, name, attributes, classes);
        let role: FrameRole = null;
        if (SKIPPED_ELEMENTS.has(name)) {
          role = 'skip';
          skipDepth += 1;
        } else if (current === null) {
          if (name === 'div' && isResultContainer(classes)) {
            current = {
              title: '',
              href: null,
              snippet: '',
              sponsored: classes.some((item) => AD_CLASSES.has(item)),
              noResult: classes.includes('result--no-result'),
            };
            role = 'result';
          }
        } else {
          if (classes.some((item) => AD_CLASSES.has(item))) current.sponsored = true;
          if (name === 'br') append(' ');
          if (name === 'a' && classes.includes('result__a') && current.href === null && titleDepth === 0) {
            current.href = typeof attributes.href === 'string' ? attributes.href : '';
            role = 'title';
            titleDepth += 1;
          } else if (classes.includes('result__snippet') && snippetDepth === 0) {
            role = 'snippet';
            snippetDepth += 1;
          }
        }
        frames.push(role);
      },
      onclosetag(_name, isImplied) {
        outsideText = '';
        const role = frames.pop() ?? null;
        if (role === 'skip') skipDepth -= 1;
        else if (role === 'title') titleDepth -= 1;
        else if (role === 'snippet') snippetDepth -= 1;
        else if (role === 'result' && current !== null) {
          if (isImplied && atEndOfInput) scan.incomplete = true;
          scan.candidates.push(current);
          current = null;
          titleDepth = 0;
          snippetDepth = 0;
        }
      },
      ontext(text) {
        if (skipDepth > 0) return;
        if (current !== null) {
          append(text);
          return;
        }
        if (outsideText.length < 64) {
          outsideText += text;
          if (/^\s*No results/u.test(outsideText)) scan.noResultsMarker = true;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  atEndOfInput = true;
  parser.end();
  return scan;
}

function isResultContainer(classes: string[]): boolean {
  return (
    classes.includes('result') &&
    (classes.includes('web-result') || classes.some((item) => AD_CLASSES.has(item)))
  );
}

function markPage(
  scan: DuckDuckGoPageScan,
  name: string,
  attributes: Record<string, string>,
  classes: string[],
): void {
  if (name === 'form') {
    if (attributes.id === 'challenge-form') scan.challenge = true;
    const action = (attributes.action ?? '').split(/[?#]/u)[0];
    if (action.endsWith('/anomaly.js')) scan.challenge = true;
  }
  for (const item of classes) {
    if (item === 'anomaly-modal' || item.startsWith('anomaly-modal__')) scan.challenge = true;
    if (item.startsWith('no-results') || item === 'result--no-result') scan.noResultsMarker = true;
    if (item.startsWith('result--more')) scan.moreMarker = true;
  }
  if (
    name === 'input' &&
    (attributes.type ?? '').toLowerCase() === 'submit' &&
    (attributes.value ?? '').trim().toLowerCase() === 'next'
  ) {
    scan.moreMarker = true;
  }
}
