import type { RE2JS } from 're2js';
import { ToolDefinitionError } from '../errors/tool-definition-error';
import { lazyRequire } from '../runtime/lazy-require';

// Loaded with the first template compiled: `@ResourceTemplate` is exported by `protolink`, which stays light.
const loadRe2js = lazyRequire((): typeof import('re2js') => require('re2js'));

/** Longest URI template accepted from a server. */
export const MAX_URI_TEMPLATE_LENGTH = 4_096;
/** Most expressions (`{…}`) in one URI template. */
const MAX_EXPRESSIONS = 64;

/** Why a URI that has a template's shape is not one of its URIs: a variable's value that may not be used. */
export interface McpUriVariableRefusal {
  /** The variable. */
  readonly variable: string;
  /** The expression it is in, as written in the template (`{folder}`, `{?term}`). */
  readonly expression: string;
  /** Its value, percent-decoded where it decodes. */
  readonly value: string;
  /** What is wrong with the value, e.g. `contains '/'`. */
  readonly problem: string;
}

/** Tells whether a URI is one of a template's URIs, and reads its variables. */
export interface McpUriTemplateMatcher {
  /** The template's variable names, in order. */
  readonly variables: readonly string[];
  matches(uri: string): boolean;
  /** The variables of a matching URI (percent-decoded), or undefined when it does not match. */
  match(uri: string): Record<string, string> | undefined;
  /**
   * Why a URI that has the template's shape does not match: the first variable whose value may not be
   * used; undefined when the URI matches or does not have the shape at all.
   */
  refusalOf(uri: string): McpUriVariableRefusal | undefined;
}

/**
 * Compiles a server's RFC 6570 URI template into a matcher that accepts the URIs the MCP SDK's servers
 * route to it (the same reading as the SDK's `UriTemplate.match`: `{x}` one path segment without commas,
 * `{+x}`/`{#x}` anything, `{/x}` and `{.x}` their prefixed segment, `{?x,y}` and `{&x}` their query pairs
 * in order). Unlike the SDK, the match runs in a linear-time engine (RE2): a hostile template such as
 * `{+a}{+b}{+c}…x` cannot make matching a URI take polynomial time. And unlike it, a value is checked once
 * decoded: a `{x}`, `{/x}` or `{.x}` value that decodes to `/`, `\`, `,` or a control character, or to `.`
 * or `..`, is not one segment, and a `{?x}`/`{&x}` value that decodes to a control character is not a query
 * value, so neither matches (`..%2F..%2Fetc` never reaches a method as `../../etc`); nor does a value that is
 * not valid percent-encoding. `{+x}` and `{#x}` values are decoded and passed on as they are.
 *
 * @throws ToolDefinitionError when the template is too long, has too many expressions, an unclosed or
 * empty expression, or cannot be compiled.
 */
export function compileMcpUriTemplate(template: string): McpUriTemplateMatcher {
  if (template.length > MAX_URI_TEMPLATE_LENGTH) {
    throw new ToolDefinitionError(
      `The URI template of ${template.length} characters is longer than ${MAX_URI_TEMPLATE_LENGTH}.`,
    );
  }
  const { RE2JS } = loadRe2js();
  let pattern = '';
  const variables: TemplateVariable[] = [];
  let expressions = 0;
  let index = 0;
  while (index < template.length) {
    const open = template.indexOf('{', index);
    const literalEnd = open === -1 ? template.length : open;
    if (template.indexOf('}', index) !== -1 && template.indexOf('}', index) < literalEnd)
      throw new ToolDefinitionError(`The URI template has a '}' without its '{'.`);
    if (literalEnd > index) pattern += RE2JS.quote(template.slice(index, literalEnd));
    if (open === -1) break;
    const close = template.indexOf('}', open);
    if (close === -1) throw new ToolDefinitionError(`The URI template has an unclosed '{'.`);
    expressions += 1;
    if (expressions > MAX_EXPRESSIONS)
      throw new ToolDefinitionError(`The URI template has more than ${MAX_EXPRESSIONS} expressions.`);
    pattern += toExpressionPattern(template.slice(open + 1, close), variables, RE2JS);
    index = close + 1;
  }
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(pattern);
  } catch (error) {
    throw new ToolDefinitionError(`The URI template cannot be compiled: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const read = (uri: string): TemplateReading | undefined => {
    const matcher = compiled.matcher(uri);
    if (!matcher.matches()) return undefined;
    const values: Record<string, string> = Object.create(null) as Record<string, string>;
    for (const [position, variable] of variables.entries()) {
      const raw = matcher.group(position + 1);
      if (raw === null || raw === undefined) continue;
      const value = readValue(raw, variable);
      if (typeof value !== 'string') return { refusal: value };
      values[variable.name] = value;
    }
    return { values };
  };
  return {
    variables: Object.freeze(variables.map((variable) => variable.name)),
    matches: (uri) => read(uri)?.values !== undefined,
    match: (uri) => read(uri)?.values,
    refusalOf: (uri) => read(uri)?.refusal,
  };
}

/** What a URI of a template's shape gives: its values, or why one of them may not be used. */
type TemplateReading =
  | { readonly values: Record<string, string>; readonly refusal?: undefined }
  | { readonly values?: undefined; readonly refusal: McpUriVariableRefusal };

/** How a variable's value is read: one segment, a query value, or anything (reserved expansion). */
interface TemplateVariable {
  readonly name: string;
  readonly expression: string;
  readonly kind: 'segment' | 'query' | 'reserved';
  /** An exploded segment (`{x*}`): a comma-separated list, each item one segment. */
  readonly exploded: boolean;
}

// C0 controls (NUL, CR, LF…), DEL and the C1 controls.
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

/** The decoded value of a variable, or why it may not be used. */
function readValue(raw: string, variable: TemplateVariable): string | McpUriVariableRefusal {
  if (variable.kind === 'reserved') return decodeLeniently(raw);
  const value = decodeStrictly(raw);
  const refuse = (problem: string): McpUriVariableRefusal => ({
    variable: variable.name,
    expression: variable.expression,
    value: value ?? raw,
    problem,
  });
  if (value === undefined) return refuse('is not valid percent-encoding');
  if (CONTROL_CHARACTER.test(value)) return refuse('contains a control character');
  if (variable.kind === 'query') return value;
  // An exploded list is checked item by item: its raw commas separate the items.
  const items = variable.exploded ? raw.split(',').map((item) => decodeStrictly(item) ?? item) : [value];
  for (const item of items) {
    const problem = segmentProblem(item);
    if (problem) return refuse(problem);
  }
  return value;
}

/** What keeps a decoded value from being one path segment, or undefined. */
function segmentProblem(item: string): string | undefined {
  for (const character of ['/', '\\', ',']) if (item.includes(character)) return `contains '${character}'`;
  if (item === '.' || item === '..') return `is '${item}'`;
  return undefined;
}

function decodeStrictly(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

function decodeLeniently(value: string): string {
  return decodeStrictly(value) ?? value;
}

function toExpressionPattern(
  expression: string,
  variables: TemplateVariable[],
  RE2JS: typeof import('re2js').RE2JS,
): string {
  const operator = /^[+#./?&]/.test(expression) ? expression[0] : '';
  const names = expression
    .slice(operator.length)
    .split(',')
    .map((name) => name.replace('*', '').trim())
    .filter((name) => name.length > 0);
  if (names.length === 0)
    throw new ToolDefinitionError(`The URI template has an empty expression '{${expression}}'.`);
  const exploded = expression.includes('*');
  const segment = exploded ? '[^/,]+(?:,[^/,]+)*' : '[^/,]+';
  const written = `{${expression}}`;
  const add = (name: string, kind: TemplateVariable['kind']): void => {
    variables.push({ name, expression: written, kind, exploded: exploded && kind === 'segment' });
  };
  // Each variable is one capture group, in order, so a match reads the values back.
  switch (operator) {
    case '?':
    case '&':
      for (const name of names) add(name, 'query');
      return names
        .map((name, position) => `${position === 0 ? `\\${operator}` : '&'}${RE2JS.quote(name)}=([^&]+)`)
        .join('');
    case '+':
    case '#':
      add(names[0], 'reserved');
      return '(.+)';
    case '.':
      add(names[0], 'segment');
      return '\\.([^/,]+)';
    case '/':
      add(names[0], 'segment');
      return `/(${segment})`;
    default:
      add(names[0], 'segment');
      return `(${segment})`;
  }
}
