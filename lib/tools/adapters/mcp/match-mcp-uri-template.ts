import { RE2JS } from 're2js';
import { ToolDefinitionError } from '../../../errors/tool-definition-error';

/** Longest URI template accepted from a server. */
export const MAX_URI_TEMPLATE_LENGTH = 4_096;
/** Most expressions (`{…}`) in one URI template. */
const MAX_EXPRESSIONS = 64;

/** Tells whether a URI is one of a template's URIs. */
export interface McpUriTemplateMatcher {
  matches(uri: string): boolean;
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
  let pattern = '';
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
    pattern += toExpressionPattern(template.slice(open + 1, close));
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
  return { matches: (uri) => compiled.matches(uri) };
}

function toExpressionPattern(expression: string): string {
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
  switch (operator) {
    case '?':
    case '&':
      return names
        .map((name, position) => `${position === 0 ? `\\${operator}` : '&'}${RE2JS.quote(name)}=[^&]+`)
        .join('');
    case '+':
    case '#':
      return '.+';
    case '.':
      return '\\.[^/,]+';
    case '/':
      return `/${segment}`;
    default:
      return segment;
  }
}
