import { ToolDefinitionError } from '../errors/tool-definition-error';
import { assertKnownOptions, defineKnownOptions } from '../runtime/assert-known-options';
import { catalogMethodDecorator, freezeCatalogOptions } from './catalog-method-decorator';
import type { ResourceOptions } from './resource-options';

const RESOURCE_OPTIONS = defineKnownOptions<ResourceOptions>(
  '@Resource()',
  { uri: true, name: true, title: true, description: true, mimeType: true, capabilities: true },
  {
    uriTemplate: 'a URI with variables is a template: use @ResourceTemplate({ uriTemplate }) instead',
    complete: 'a fixed URI has nothing to complete; complete belongs to @ResourceTemplate and @Prompt',
  },
);

/** A URI with a scheme, as MCP requires. */
export const RESOURCE_URI_PATTERN = /^[A-Za-z][A-Za-z0-9+.-]*:\S*$/;

/**
 * Marks a method as the reader of one resource. The method takes no arguments (only `@Context()`) and returns
 * text, bytes (`Uint8Array`/`Buffer`, sent as a base64 blob), a `{ text | blob, mimeType? }` object, a list of
 * them, or `ToolResult.resource(...)`; `agent.readResource(uri)` and `resources/read` run it through the
 * agent's policy like a tool call.
 *
 * @throws ToolDefinitionError for a URI without a scheme, an option of the wrong kind or not known, or a
 *   static method.
 */
export function Resource(options: ResourceOptions): MethodDecorator {
  if (typeof options !== 'object' || options === null) {
    throw new ToolDefinitionError(
      "@Resource() needs options: @Resource({ uri: 'config://app', mimeType: 'application/json' }).",
    );
  }
  const where = `@Resource({ uri: ${JSON.stringify(options.uri)} })`;
  assertKnownOptions(options, RESOURCE_OPTIONS, { where });
  if (typeof options.uri !== 'string' || !RESOURCE_URI_PATTERN.test(options.uri)) {
    throw new ToolDefinitionError(
      `${where} needs a uri with a scheme and no whitespace, e.g. 'config://app' or 'file:///notes/today.md'.`,
    );
  }
  if (options.uri.includes('{')) {
    throw new ToolDefinitionError(
      `${where} has a variable in its uri; declare it with @ResourceTemplate({ uriTemplate: ${JSON.stringify(options.uri)} }).`,
    );
  }
  return catalogMethodDecorator('resource', where, freezeCatalogOptions(options, where, []));
}
