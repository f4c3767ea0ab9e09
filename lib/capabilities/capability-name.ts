/**
 * What a capability looks like once normalized: lower-case ASCII segments of `[a-z0-9_-]` joined by dots
 * (`network.read`, `records.write`, `mcp.github`).
 */
export const CAPABILITY_PATTERN = /^[a-z0-9_-]+(\.[a-z0-9_-]+)*$/;

// Checked before lower-casing: `toLowerCase` maps a few non-ASCII letters to ASCII ones (the Kelvin sign
// becomes `k`), and a capability that only looks like another must never match its rules.
const ASCII_CAPABILITY = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;

/** The outcome of reading one capability: its normalized name, or why it is not one. */
export type CapabilityNameResult =
  | { readonly ok: true; readonly name: string }
  | {
      readonly ok: false;
      /** A sentence naming the value and what is wrong with it. */
      readonly problem: string;
      /** What is wrong, alone (`it has leading or trailing spaces`). */
      readonly reason: string;
    };

/**
 * Reads a capability name: lower-cases it and checks it against {@link CAPABILITY_PATTERN}. Anything else
 * (spaces, non-ASCII look-alikes such as a Cyrillic `е`, zero-width or fullwidth characters, empty
 * segments, `*`) is refused with a sentence that says what is wrong and how to write it.
 */
export function readCapabilityName(value: unknown): CapabilityNameResult {
  if (typeof value !== 'string') {
    const reason = "capabilities are strings such as 'network.read'";
    return { ok: false, problem: `${describeValue(value)} is not a capability name (${reason})`, reason };
  }
  if (ASCII_CAPABILITY.test(value)) return { ok: true, name: value.toLowerCase() };
  const reason = whyInvalid(value);
  return { ok: false, problem: `${showCapability(value)} is not a capability name: ${reason}`, reason };
}

/** The advice every capability error ends with. */
export const CAPABILITY_NAME_ADVICE =
  "write capabilities as lower-case ASCII words of [a-z0-9_-] joined by dots, e.g. 'network.read' or 'records.write'";

/** Shows a capability in a message, with invisible and non-ASCII characters as `\u` escapes. */
export function showCapability(value: string): string {
  const shown = value.length > 80 ? `${value.slice(0, 80)}…` : value;
  return `'${shown.replace(/[^\x20-\x7e]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`)}'`;
}

function whyInvalid(value: string): string {
  if (value === '') return 'it is empty';
  if (value.trim() !== value) return 'it has leading or trailing spaces';
  const odd = [...value].find((character) => !/[A-Za-z0-9_.-]/.test(character));
  if (odd !== undefined) {
    const code = odd.codePointAt(0) ?? 0;
    const label = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
    if (odd === '*') return "'*' belongs in policy rules ('network.*'), not in a tool's capabilities";
    if (/\s/.test(odd)) return `it contains white space (${label})`;
    if (code > 0x7e) return `it contains the non-ASCII character ${label}, which can look like an ASCII one`;
    return `it contains '${odd}'`;
  }
  return 'it has an empty segment (a leading, trailing or doubled dot)';
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a nested list';
  if (value instanceof Set) return 'a Set';
  return typeof value === 'object' ? 'an object' : `the ${typeof value} ${String(value)}`;
}

/**
 * Capability names as any iterable of strings: an array, a `Set`, a generator (the original took a list, a
 * tuple or a set). Never a bare string, which would be read letter by letter.
 */
export type CapabilityList = Iterable<string> & object;

/** Options of {@link readCapabilityList}. */
export interface ReadCapabilityListOptions {
  /**
   * Accept only an array (a tool's `capabilities` property, read again on every call, where a generator
   * would be used up by the first reading). Default: any iterable.
   */
  arrayOnly?: boolean;
}

/** The outcome of reading a capability list: the normalized list, or why it is not one. */
export type CapabilityListResult =
  | { readonly ok: true; readonly capabilities: readonly string[] }
  | { readonly ok: false; readonly problem: string };

const NO_CAPABILITIES: readonly string[] = Object.freeze([]);

/**
 * Reads a capability list (null or undefined: none): any iterable of names (an array, a `Set`, a generator,
 * read once), each read by {@link readCapabilityName}; empty strings dropped, duplicates dropped (first
 * occurrence kept), frozen. A bare string is refused rather than read letter by letter, and so is anything
 * that is not iterable.
 */
export function readCapabilityList(
  value: unknown,
  options: ReadCapabilityListOptions = {},
): CapabilityListResult {
  if (value === null || value === undefined) return { ok: true, capabilities: NO_CAPABILITIES };
  if (Array.isArray(value)) {
    if (value.length === 0) return { ok: true, capabilities: NO_CAPABILITIES };
  } else if (typeof value === 'string' || value instanceof String) {
    const shown = showCapability(String(value));
    return {
      ok: false,
      problem: `capabilities must be a list, not the bare string ${shown} (it would be read letter by letter); pass capabilities: [${shown}]`,
    };
  } else if (options.arrayOnly || !isIterableObject(value)) {
    const fix = options.arrayOnly
      ? `an array of strings such as ['records.write'], not ${describeValue(value)}${isIterableObject(value) ? ' (spread it into an array: [...capabilities])' : ''}`
      : `a list (an array, a Set or another iterable) of strings such as ['records.write'], not ${describeValue(value)}`;
    return { ok: false, problem: `capabilities must be ${fix}` };
  }
  const seen = new Set<string>();
  for (const item of value as Iterable<unknown>) {
    if (item === '') continue;
    const read = readCapabilityName(item);
    if (!read.ok) return { ok: false, problem: `capability ${read.problem}; ${CAPABILITY_NAME_ADVICE}` };
    seen.add(read.name);
  }
  return { ok: true, capabilities: seen.size === 0 ? NO_CAPABILITIES : Object.freeze([...seen]) };
}

/**
 * Returns capabilities that can be read more than once: a one-shot iterator (a generator) is copied into an
 * array; anything else (an array, a `Set`, a bare string, which is refused where it is read) is returned
 * unchanged.
 */
export function toReusableCapabilities<T>(value: T): T {
  if (!isIterableObject(value) || value instanceof String) return value;
  const oneShot = (value[Symbol.iterator]() as unknown) === value;
  return (oneShot ? [...value] : value) as T;
}

function isIterableObject(value: unknown): value is Iterable<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function'
  );
}
