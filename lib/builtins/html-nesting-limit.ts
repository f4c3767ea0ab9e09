/**
 * Deepest element nesting the built-ins read from HTML. htmlparser2's work per tag grows with the depth of
 * open elements, so a page of nothing but opening tags costs quadratic CPU; real pages nest far less.
 */
export const MAX_HTML_NESTING_DEPTH = 512;
