import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ToolInputError } from '../errors/tool-input-error';

const SKIPPED_DIRECTORIES = new Set(['node_modules', 'dist', 'coverage', '.git']);

/**
 * Expands files and directories into the TypeScript source files below them (no `.d.ts`, nothing under
 * node_modules, dist or .git), sorted for a stable manifest.
 *
 * @throws ToolInputError when a path does not exist.
 */
export function findTypeScriptFiles(paths: readonly string[]): string[] {
  const found = new Set<string>();
  const visit = (path: string): void => {
    let stats;
    try {
      stats = statSync(path);
    } catch (error) {
      throw new ToolInputError(
        `'${path}' does not exist; pass TypeScript files or folders that hold @Tool classes.`,
        { cause: error },
      );
    }
    if (stats.isDirectory()) {
      for (const entry of readdirSync(path)) {
        if (!SKIPPED_DIRECTORIES.has(entry)) visit(join(path, entry));
      }
    } else if (/\.tsx?$/.test(path) && !path.endsWith('.d.ts')) {
      found.add(resolve(path));
    }
  };
  for (const path of paths) visit(path);
  return [...found].sort();
}
