import type { AxiosStatic } from 'axios';

/**
 * Returns a loader that runs `load` on first use and caches what it returned, so that a heavy dependency
 * (axios, htmlparser2, yaml, Ajv) or a part of `protolink` that only some programs use costs nothing at
 * `import 'protolink'` and is paid only by the code path that needs it.
 *
 * `load` is a `require` of a literal module id (`() => require('./module')`): bundlers (esbuild, webpack)
 * see the module and bundle it, and run it on first use too. A module id computed at run time would leave the
 * module out of a bundle.
 */
export function lazyRequire<T>(load: () => T): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= load());
}

/** axios, for the safe HTTP layer and the model clients. */
export const loadAxios = lazyRequire(
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (): AxiosStatic => require('axios'),
);

/** htmlparser2, for HTML → text in fetch_url and web_search. */
export const loadHtmlParser = lazyRequire(
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (): typeof import('htmlparser2') => require('htmlparser2'),
);

/** yaml, for `toYAML()` / `fromYAML()`. */
export const loadYaml = lazyRequire(
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (): typeof import('yaml') => require('yaml'),
);

/** ajv-formats' format definitions, read when a schema with a `format` is compiled. */
export const loadAjvFormatDefinitions = lazyRequire(
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (): typeof import('ajv-formats/dist/formats') => require('ajv-formats/dist/formats'),
);
