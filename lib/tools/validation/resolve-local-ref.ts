/**
 * Resolves a local reference (`#`, `#/$defs/Name`, `#/definitions/Name` or any other JSON pointer into the
 * root) to what it points at; undefined when it is not local or points at nothing.
 */
export function resolveLocalRef(root: unknown, reference: string): unknown {
  if (reference === '#') return root;
  if (!reference.startsWith('#/')) return undefined;
  let current: unknown = root;
  for (const rawPart of reference.slice(2).split('/')) {
    const part = decodePointerPart(rawPart);
    if (
      part === undefined ||
      typeof current !== 'object' ||
      current === null ||
      !Object.prototype.hasOwnProperty.call(current, part)
    ) {
      return undefined;
    }
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

function decodePointerPart(rawPart: string): string | undefined {
  try {
    return decodeURIComponent(rawPart).replace(/~1/g, '/').replace(/~0/g, '~');
  } catch {
    // A malformed escape (`%E0%A4%A`) names nothing; the caller reports the reference as unresolvable.
    return undefined;
  }
}
