import type { RE2JS } from 're2js';
import { ToolDefinitionError } from '../../../errors/tool-definition-error';
import { lazyRequire } from '../../../runtime/lazy-require';

// Loaded with the first template compiled: `@ResourceTemplate` is exported by `protolink`, which stays light.
const loadRe2js = lazyRequire((): typeof import('re2js') => require('re2js'));

/** Longest URI template accepted from a server. */
export const MAX_URI_TEMPLATE_LENGTH = 4_096;
/** Most expressions (`{…}`) in one URI template. */
const MAX_EXPRESSIONS = 64;

/** Tells whether a URI is one of a template's URIs, and reads its variables. */
export interface McpUriTemplateMatcher {
  /** The template's variable names, in order. */
  readonly variables: readonly string[];
  matches(uri: string): boolean;
  /** The variables of a matching URI (percent-decoded), or undefined when it does not match. */
  match(uri: string): Record<string, string> | undefined;
}

/**
 * Compiles a server's RFC 6570 URI template into a matcher that accepts the URIs the MCP SDK's servers
 * route to it (the same reading as the SDK's `UriTemplate.match`: `{x}` one path segment without commas,
 * `{+x}`/`{#x}` anything, `{/x}` and `{.x}` their prefixed segment, `{?x,y}` and `{&x}` their query pairs
 * in order). Unlike the SDK, the match runs in a linear-time engine (RE2): a hostile template such as
 * `{+a}{+b}{+c}…x` cannot make matching a URI take polynomial time.
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
  const variables: string[] = [];
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
  return {
    variables: Object.freeze([...variables]),
    matches: (uri) => compiled.matches(uri),
    match: (uri) => {
      const matcher = compiled.matcher(uri);
      if (!matcher.matches()) return undefined;
      const values: Record<string, string> = Object.create(null) as Record<string, string>;
      variables.forEach((name, position) => {
        const value = matcher.group(position + 1);
        if (value !== null && value !== undefined) values[name] = decodeValue(value);
      });
      return values;
    },
  };
}

function decodeValue(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function toExpressionPattern(
  expression: string,
  variables: string[],
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
  // Each variable is one capture group, in order, so a match reads the values back.
  switch (operator) {
    case '?':
    case '&':
      variables.push(...names);
      return names
        .map((name, position) => `${position === 0 ? `\\${operator}` : '&'}${RE2JS.quote(name)}=([^&]+)`)
        .join('');
    case '+':
    case '#':
      variables.push(names[0]);
      return '(.+)';
    case '.':
      variables.push(names[0]);
      return '\\.([^/,]+)';
    case '/':
      variables.push(names[0]);
      return `/(${segment})`;
    default:
      variables.push(names[0]);
      return `(${segment})`;
  }
}
