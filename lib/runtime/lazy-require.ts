import type { AxiosStatic } from 'axios';

/**
 * Returns a loader that runs `load` on first use and caches what it returned, so that a heavy dependency
 * (axios, htmlparser2, yaml, Ajv) or a part of `protolink` that only some programs use costs nothing at
 * `import 'protolink'` and is paid only by the code path that needs it.
 *
 * `load` is a `require` of a literal module id (`() => require('./module')`): bundlers (esbuild, webpack)
 * see the module and bundle it, and run it on first use too. A module id computed at run time would leave the
 * module out of a bundle; the lint configuration (`no-require-imports` with an allow-list of relative paths and
 * the lazily loaded packages) refuses one in lib/.
 */
export function lazyRequire<T>(load: () => T): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= load());
}

/** axios, for the safe HTTP layer and the model clients. */
export const loadAxios = lazyRequire((): AxiosStatic => require('axios'));

/** htmlparser2, for HTML → text in fetch_url and web_search. */
export const loadHtmlParser = lazyRequire((): typeof import('htmlparser2') => require('htmlparser2'));

/** yaml, for `toYAML()` / `fromYAML()`. */
export const loadYaml = lazyRequire((): typeof import('yaml') => require('yaml'));

/** ajv-formats' format definitions, read when a schema with a `format` is compiled. */
export const loadAjvFormatDefinitions = lazyRequire((): typeof import('ajv-formats/dist/formats') =>
  require('ajv-formats/dist/formats'),
);
