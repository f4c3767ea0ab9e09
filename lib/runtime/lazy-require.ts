import { join } from 'node:path';
import type { AxiosStatic } from 'axios';

/**
 * Returns a loader that requires a module on first use and caches it, so a heavy dependency (axios,
 * htmlparser2, yaml) or a part of `protolink` that only some programs use costs nothing at
 * `import 'protolink'` and is paid only by the code path that needs it.
 *
 * `id` is a package name, or a path relative to `directory` (the caller's `__dirname`): our own modules are
 * resolved on first use too, not when the loader is made (a resolution costs file-system lookups).
 */
export function lazyRequire<T>(id: string, directory?: string): () => T {
  let loaded: T | undefined;
  return () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    loaded ??= require(directory === undefined ? id : join(directory, id)) as T;
    return loaded;
  };
}

/** axios, for the safe HTTP layer and the model clients. */
export const loadAxios = lazyRequire<AxiosStatic>('axios');

/** htmlparser2, for HTML → text in fetch_url and web_search. */
export const loadHtmlParser = lazyRequire<typeof import('htmlparser2')>('htmlparser2');

/** yaml, for `toYAML()` / `fromYAML()`. */
export const loadYaml = lazyRequire<typeof import('yaml')>('yaml');

/** ajv-formats' format definitions, read when a schema with a `format` is compiled. */
export const loadAjvFormatDefinitions =
  lazyRequire<typeof import('ajv-formats/dist/formats')>('ajv-formats/dist/formats');
