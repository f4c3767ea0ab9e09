import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** One module specifier a declaration file names, with the file that names it. */
export interface DeclarationImport {
  /** The declaration file, relative to the root it was walked from. */
  readonly file: string;
  /** The module specifier (`./agent`, `@modelcontextprotocol/sdk/types.js`). */
  readonly specifier: string;
}

// `from '…'`, `import '…'`, `import('…')`, `require('…')` and `/// <reference types|path="…" />`.
const SPECIFIER_PATTERNS = [
  /\bfrom\s*['"]([^'"]+)['"]/g,
  /\bimport\s*['"]([^'"]+)['"]/g,
  /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  /\/\/\/\s*<reference\s+(?:types|path)\s*=\s*['"]([^'"]+)['"]/g,
];

/**
 * Walks the declaration files reachable from the entry `.d.ts` files through relative specifiers and
 * returns every specifier met on the way (relative ones included), so a test can check what an entry's
 * types reach.
 */
export function collectDeclarationImports(root: string, entries: readonly string[]): DeclarationImport[] {
  const found: DeclarationImport[] = [];
  const seen = new Set<string>();
  const pending = entries.map((entry) => join(root, entry));
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const pattern of SPECIFIER_PATTERNS) {
      for (const match of text.matchAll(pattern)) {
        const specifier = match[1]!;
        found.push({ file: relative(root, file), specifier });
        if (specifier.startsWith('.')) {
          const target = resolveDeclaration(join(dirname(file), specifier));
          if (target) pending.push(target);
          else throw new Error(`${relative(root, file)} names '${specifier}', which has no declaration file`);
        }
      }
    }
  }
  return found;
}

function resolveDeclaration(base: string): string | undefined {
  const stem = base.replace(/\.(js|d\.ts|ts)$/, '');
  return [`${stem}.d.ts`, join(stem, 'index.d.ts')].find((candidate) => existsSync(candidate));
}
