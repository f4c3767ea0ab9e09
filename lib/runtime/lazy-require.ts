import type { AxiosStatic } from 'axios';

/**
 * Returns a loader that requires a module on first use and caches it, so a heavy dependency (axios,
 * htmlparser2, yaml) costs nothing at `import 'protolink'` and is paid only by the code path that needs it.
 */
export function lazyRequire<T>(id: string): () => T {
  let loaded: T | undefined;
  return () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    loaded ??= require(id) as T;
    return loaded;
  };
}

/** axios, for the safe HTTP layer and the model clients. */
export const loadAxios = lazyRequire<AxiosStatic>('axios');

/** htmlparser2, for HTML → text in fetch_url and web_search. */
export const loadHtmlParser = lazyRequire<typeof import('htmlparser2')>('htmlparser2');

/** yaml, for `toYAML()` / `fromYAML()`. */
export const loadYaml = lazyRequire<typeof import('yaml')>('yaml');
