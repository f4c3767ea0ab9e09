import { ToolDefinitionError } from '../errors/tool-definition-error';
import { assertKnownOptions, defineKnownOptions } from '../runtime/assert-known-options';
import { compileMcpUriTemplate } from './match-mcp-uri-template';
import { catalogMethodDecorator, freezeCatalogOptions } from './catalog-method-decorator';
import type { ResourceTemplateOptions } from './resource-options';

const RESOURCE_TEMPLATE_OPTIONS = defineKnownOptions<ResourceTemplateOptions>(
  '@ResourceTemplate()',
  {
    uriTemplate: true,
    name: true,
    title: true,
    description: true,
    mimeType: true,
    capabilities: true,
    complete: true,
  },
  { uri: 'a template takes uriTemplate; a fixed URI is a @Resource({ uri })' },
);

/**
 * Marks a method as the reader of the resources whose URIs follow an RFC 6570 template
 * (`notes://{folder}/{id}`). Each variable is a named `@Param` of the method: a read validates and coerces the
 * values taken from the URI like tool arguments (`{id}` with `@Param('id', { type: 'integer' })` gets a
 * number). Returns what a `@Resource` method returns.
 *
 * @throws ToolDefinitionError for a template that does not compile, a `complete` provider for no variable,
 *   an option of the wrong kind or not known, or a static method.
 */
export function ResourceTemplate(options: ResourceTemplateOptions): MethodDecorator {
  if (typeof options !== 'object' || options === null) {
    throw new ToolDefinitionError(
      "@ResourceTemplate() needs options: @ResourceTemplate({ uriTemplate: 'notes://{folder}/{id}' }).",
    );
  }
  const where = `@ResourceTemplate({ uriTemplate: ${JSON.stringify(options.uriTemplate)} })`;
  assertKnownOptions(options, RESOURCE_TEMPLATE_OPTIONS, { where });
  if (typeof options.uriTemplate !== 'string' || !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(options.uriTemplate)) {
    throw new ToolDefinitionError(
      `${where} needs a uriTemplate string with a scheme, e.g. 'notes://{folder}/{id}'.`,
    );
  }
  let variables: readonly string[];
  try {
    variables = compileMcpUriTemplate(options.uriTemplate).variables;
  } catch (error) {
    throw new ToolDefinitionError(`${where}: ${(error as Error).message}`, { cause: error });
  }
  if (variables.length === 0) {
    throw new ToolDefinitionError(
      `${where} has no variable; a fixed URI is a @Resource({ uri: ${JSON.stringify(options.uriTemplate)} }).`,
    );
  }
  return catalogMethodDecorator('resourceTemplate', where, freezeCatalogOptions(options, where, variables));
}
