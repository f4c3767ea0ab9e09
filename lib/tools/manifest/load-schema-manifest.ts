import { readFileSync } from 'node:fs';
import { ToolInputError } from '../../errors/tool-input-error';
import type { SchemaManifest } from './schema-manifest';

/**
 * Reads a schema manifest written by `protolink schemas` (feed it to `new ToolRegistry({ manifest })` or
 * `scanTools(instance, { manifest })`).
 *
 * @throws ToolInputError when the file is missing, not JSON, or not a manifest.
 */
export function loadSchemaManifest(path: string): SchemaManifest {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ToolInputError(
      `Cannot read the schema manifest '${path}': run 'protolink schemas' to create it.`,
      { cause: error },
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ToolInputError(
      `The schema manifest '${path}' is not valid JSON; regenerate it with 'protolink schemas'.`,
      { cause: error },
    );
  }
  const manifest = data as Partial<SchemaManifest>;
  if (
    typeof data !== 'object' ||
    data === null ||
    manifest.version !== 1 ||
    typeof manifest.tools !== 'object' ||
    manifest.tools === null
  ) {
    throw new ToolInputError(
      `'${path}' is not a Protolink schema manifest (expected { "version": 1, "tools": { … } }).`,
    );
  }
  return manifest as SchemaManifest;
}
