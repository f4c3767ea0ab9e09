const MAX_PATTERN_LENGTH = 512;

/**
 * Whether a regular expression from an untrusted schema is safe to run: short, no back-references, and no
 * quantified group that itself contains a quantifier (the shape of catastrophic backtracking, `(a+)+`).
 */
export function isSafePattern(source: string): boolean {
  if (source.length > MAX_PATTERN_LENGTH) return false;
  if (/\\[1-9]|\\k</.test(source)) return false;
  const stack: boolean[] = [];
  let quantifiedInside = false;
  for (let index = 0; index < source.length; index += 1) {
    const char = source[index];
    if (char === '\\') {
      index += 1;
      continue;
    }
    if (char === '[') {
      const end = source.indexOf(']', index + 1);
      if (end === -1) return false;
      index = end;
      continue;
    }
    if (char === '(') {
      stack.push(quantifiedInside);
      quantifiedInside = false;
      continue;
    }
    if (char === ')') {
      const groupHasQuantifier = quantifiedInside;
      quantifiedInside = stack.pop() ?? false;
      const next = source[index + 1];
      const groupIsQuantified = next === '*' || next === '+' || next === '{' || next === '?';
      if (groupIsQuantified && groupHasQuantifier && next !== '?') return false;
      if (groupHasQuantifier || groupIsQuantified) quantifiedInside = true;
      continue;
    }
    if (char === '*' || char === '+' || char === '{') quantifiedInside = true;
  }
  return true;
}
