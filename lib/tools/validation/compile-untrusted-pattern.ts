import type { RE2JS } from 're2js';
import { ToolDefinitionError } from '../../errors/tool-definition-error';
import { lazyRequire } from '../../runtime/lazy-require';
import { toRe2Pattern, UnsupportedPatternSyntax } from './to-re2-pattern';

/** A compiled pattern: `test` finds a match anywhere in the value, as `RegExp.prototype.test` does. */
export interface PatternMatcher {
  test(value: string): boolean;
}

/** Longest pattern source accepted from an untrusted schema. */
export const MAX_UNTRUSTED_PATTERN_LENGTH = 4_096;
const CACHE_LIMIT = 1_000;
const cache = new Map<string, PatternMatcher>();
// Loaded with the first untrusted pattern (an MCP server's schema), not with `import 'protolink'`.
const loadRe2js = lazyRequire((): typeof import('re2js') => require('re2js'));

/**
 * Compiles a pattern from an untrusted schema (an MCP server's) for RE2JS, a linear-time engine: matching
 * takes time proportional to the value whatever the pattern, so `^(a|a)*$` cannot freeze the process.
 * The pattern is read as ECMA-262 with the `u` flag (see {@link toRe2Pattern} for the translation).
 * Limits: no back-references, no look-arounds, repeat counts up to 1,000 (`{0,5000}` is refused), at most
 * {@link MAX_UNTRUSTED_PATTERN_LENGTH} characters; `\d`, `\w` and `\b` are ASCII as in JavaScript.
 *
 * @throws ToolDefinitionError saying why RE2 cannot run the pattern.
 */
export function compileUntrustedPattern(source: string): PatternMatcher {
  const cached = cache.get(source);
  if (cached) return cached;
  if (source.length > MAX_UNTRUSTED_PATTERN_LENGTH) {
    throw new ToolDefinitionError(
      `The pattern of ${source.length} characters is longer than ${MAX_UNTRUSTED_PATTERN_LENGTH}; patterns from untrusted schemas must be shorter.`,
    );
  }
  const translated = toRe2Pattern(source);
  if (translated instanceof UnsupportedPatternSyntax) {
    throw new ToolDefinitionError(
      `The pattern ${JSON.stringify(source)} uses ${translated.reason}, which the linear-time engine for untrusted schemas cannot run; the server must rewrite it without them.`,
    );
  }
  let compiled: RE2JS;
  try {
    compiled = loadRe2js().RE2JS.compile(translated);
  } catch (error) {
    throw new ToolDefinitionError(
      `The pattern ${JSON.stringify(source)} cannot be compiled by the linear-time engine for untrusted schemas (${(error as Error).message}); the server must simplify it.`,
      { cause: error },
    );
  }
  const matcher: PatternMatcher = { test: (value) => compiled.test(value) };
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(source, matcher);
  return matcher;
}
