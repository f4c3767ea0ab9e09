/** The English Wikipedia address that opens a page by its numeric id. */
export const WIKIPEDIA_PAGE_BASE = 'https://en.wikipedia.org/?curid=';

/**
 * Builds the URL of a Wikipedia search page from its positive integer page id
 * (`https://en.wikipedia.org/?curid=38930`). The provider's `key` is never used: the id alone cannot smuggle
 * a path, a host or a query into the URL.
 */
export function buildWikipediaPageUrl(id: number): string {
  return `${WIKIPEDIA_PAGE_BASE}${id}`;
}
