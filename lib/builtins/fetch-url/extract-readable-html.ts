import { MAX_HTML_NESTING_DEPTH } from '../html-nesting-limit';
import { loadHtmlParser } from '../../runtime/lazy-require';
import { ToolRuntimeError } from '../../errors/tool-runtime-error';
import { FETCH_URL_LIMITS } from './fetch-url-limits';

/** Elements whose content is never readable text. */
const SKIPPED = new Set(['script', 'style', 'noscript', 'svg', 'canvas', 'template', 'title']);
/** Elements that start and end a line. */
const BLOCKS = new Set([
  'article',
  'aside',
  'blockquote',
  'br',
  'dd',
  'div',
  'dl',
  'dt',
  'figcaption',
  'figure',
  'footer',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'td',
  'th',
  'tr',
  'ul',
]);

/** Deepest element nesting read (deeper pages are refused: the parser's work grows with depth). */
export const MAX_NESTING_DEPTH = MAX_HTML_NESTING_DEPTH;

const TOO_DEEP = Symbol('too deep');

/**
 * Turns an HTML document into its readable text and `<title>`: script, style, noscript, svg, canvas and
 * template content is skipped, block elements break lines (and source line breaks inside `<pre>`), each line has its whitespace collapsed and is
 * trimmed, empty lines are dropped, entities are decoded. The title is normalized the same way and cut at
 * 500 characters.
 *
 * @throws ToolRuntimeError "malformed HTML" when the parser fails.
 */
export function extractReadableHtml(html: string): { title: string; text: string } {
  const parts: string[] = [];
  const titleParts: string[] = [];
  let skipDepth = 0;
  let inTitle = 0;
  let svgDepth = 0;
  let preDepth = 0;
  // htmlparser2's own work per tag grows with the nesting depth: a page of nothing but opening tags would
  // take a minute of CPU. Real pages nest far less than this.
  let openDepth = 0;
  const parser = new (loadHtmlParser().Parser)(
    {
      onopentag(name) {
        if (++openDepth > MAX_NESTING_DEPTH) throw TOO_DEEP;
        if (name === 'svg') svgDepth += 1;
        if (name === 'pre') preDepth += 1;
        if (name === 'title' && svgDepth === 0) inTitle += 1;
        if (SKIPPED.has(name)) skipDepth += 1;
        else if (BLOCKS.has(name)) parts.push('\n');
      },
      onclosetag(name) {
        openDepth = Math.max(0, openDepth - 1);
        if (name === 'svg') svgDepth = Math.max(0, svgDepth - 1);
        if (name === 'pre') preDepth = Math.max(0, preDepth - 1);
        if (name === 'title') inTitle = Math.max(0, inTitle - 1);
        if (SKIPPED.has(name)) skipDepth = Math.max(0, skipDepth - 1);
        else if (BLOCKS.has(name)) parts.push('\n');
      },
      ontext(text) {
        if (inTitle > 0 && svgDepth === 0 && titleParts.length < 1000) titleParts.push(text);
        // Outside <pre>, a line break in the source is just a space, as a browser renders it.
        if (skipDepth === 0) parts.push(preDepth > 0 ? text : text.replace(/[\t\n\f\r ]+/gu, ' '));
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  try {
    parser.write(html);
    parser.end();
  } catch (error) {
    if (error === TOO_DEEP) {
      throw new ToolRuntimeError(
        `${FETCH_URL_LIMITS.toolName}: the page nests HTML elements more than ${MAX_NESTING_DEPTH} levels deep, so it is not read (a page built to exhaust the parser).`,
        { toolName: FETCH_URL_LIMITS.toolName },
      );
    }
    throw new ToolRuntimeError(
      `${FETCH_URL_LIMITS.toolName}: malformed HTML: the page could not be parsed.`,
      {
        toolName: FETCH_URL_LIMITS.toolName,
        cause: error,
      },
    );
  }
  const title = collapse(titleParts.join('')).slice(0, FETCH_URL_LIMITS.maxTitleLength);
  return { title, text: toLines(parts.join('')) };
}

/** Collapses whitespace runs to one space per line, trims lines, drops empty ones and joins with `\n`. */
export function toLines(text: string): string {
  return text
    .split(/\r\n|\r|\n/u)
    .map(collapse)
    .filter((line) => line !== '')
    .join('\n');
}

function collapse(text: string): string {
  return text.replace(/[\s\u00a0]+/gu, ' ').trim();
}
