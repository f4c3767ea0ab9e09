import { ToolDefinitionError } from '../errors/tool-definition-error';

/**
 * The option names one options type accepts, with advice for names it does not (see
 * {@link defineKnownOptions}). Built once per options type, at module load.
 */
export interface KnownOptions {
  /** Who takes the options, as messages name it: `new NativeTool()`, `@Tool()`, `startAgentServer()`. */
  readonly owner: string;
  /** Every accepted option, in the order of the options type. */
  readonly names: readonly string[];
  /** What to use instead of a name someone may reasonably pass (the original's legacy fields…). */
  readonly advice: Readonly<Record<string, string>>;
  /** {@link names} as a set, for the lookups. */
  readonly nameSet: ReadonlySet<string>;
}

/**
 * Declares the options of one options type. `names` is a record with one entry per key of `T`, so the
 * compiler refuses a list that misses an option of the type or names one it does not have.
 *
 * @param owner who takes the options, as messages name it (`new NativeTool()`).
 * @param names every option of `T`, each mapped to `true`.
 * @param advice for names that are not options but may be passed anyway (the original's legacy fields,
 *   other libraries' names): what to do instead, as a clause (`pass inputSchema instead`).
 */
export function defineKnownOptions<T extends object>(
  owner: string,
  names: { readonly [K in keyof Required<T>]: true },
  advice: Readonly<Record<string, string>> = {},
): KnownOptions {
  const list = Object.freeze(Object.keys(names));
  return Object.freeze({
    owner,
    names: list,
    advice: Object.freeze({ ...advice }),
    nameSet: new Set(list),
  });
}

/** Where the options were given, when the message should say more than the owner (a tool's name). */
export interface KnownOptionsSubject {
  /** Replaces the owner at the start of the message, e.g. `@Tool({ name: 'add' })`. */
  where?: string;
  /** The tool the options belong to, kept on the error. */
  toolName?: string;
}

/**
 * Checks that an options object has only known options (its own enumerable string keys; an option set to
 * `undefined` counts as given and must be known too). Run when options are taken, never per call.
 *
 * @throws ToolDefinitionError naming the first unknown option, what to use instead (the camelCase name of
 *   the original's snake_case one, the advice of a known legacy name, or a close spelling), the other unknown
 *   options, and the known ones.
 */
export function assertKnownOptions(
  options: object,
  known: KnownOptions,
  subject: KnownOptionsSubject = {},
): void {
  let unknown: string[] | undefined;
  for (const key in options) {
    if (!Object.prototype.hasOwnProperty.call(options, key) || known.nameSet.has(key)) continue;
    (unknown ??= []).push(key);
  }
  if (unknown === undefined) return;
  const [first, ...others] = unknown;
  const also = others.length ? ` Also not known: ${others.map((key) => `'${key}'`).join(', ')}.` : '';
  throw new ToolDefinitionError(
    `${subject.where ?? known.owner} option '${first}' is not known${describeFix(first, known)}.${also} ` +
      `Known options: ${known.names.join(', ')}.`,
    { toolName: subject.toolName },
  );
}

function describeFix(key: string, known: KnownOptions): string {
  const advice = Object.prototype.hasOwnProperty.call(known.advice, key) ? known.advice[key] : undefined;
  if (advice !== undefined) return `: ${advice}`;
  const camel = key.replace(/[_-]+([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
  if (camel !== key && known.nameSet.has(camel)) {
    return `: it is the original's snake_case spelling; options are camelCase, use '${camel}' instead`;
  }
  const close = findClosestName(key, known.names);
  if (close !== undefined) return `; did you mean '${close}'?`;
  return '; remove it (an option that is not known would be ignored)';
}

/** The known name within two edits of `key` (case ignored), the closest first; none for a short key. */
function findClosestName(key: string, names: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  let best: string | undefined;
  let bestDistance = 3;
  for (const name of names) {
    const distance = editDistance(lower, name.toLowerCase(), bestDistance);
    // A key that short is a different word, not a slip ('to' is not 'tools').
    if (distance < bestDistance && distance < key.length) {
      best = name;
      bestDistance = distance;
    }
  }
  return best;
}

/** Levenshtein distance with adjacent swaps counted as one edit; `limit` or more means "too far". */
function editDistance(left: string, right: string, limit: number): number {
  if (Math.abs(left.length - right.length) >= limit) return limit;
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: right.length + 1 }, (_unused, index) => index);
  for (let row = 1; row <= left.length; row += 1) {
    const current = [row];
    let rowMinimum = row;
    for (let column = 1; column <= right.length; column += 1) {
      const cost = left[row - 1] === right[column - 1] ? 0 : 1;
      let value = Math.min(previous[column] + 1, current[column - 1] + 1, previous[column - 1] + cost);
      if (
        row > 1 &&
        column > 1 &&
        left[row - 1] === right[column - 2] &&
        left[row - 2] === right[column - 1]
      ) {
        value = Math.min(value, beforePrevious[column - 2] + 1);
      }
      current.push(value);
      rowMinimum = Math.min(rowMinimum, value);
    }
    if (rowMinimum >= limit) return limit;
    beforePrevious = previous;
    previous = current;
  }
  return Math.min(previous[right.length], limit);
}
