import { ToolDefinitionError } from '../../errors/tool-definition-error';
import type { CapabilityList } from '../../capabilities/capability-name';
import { assertKnownOptions, defineKnownOptions } from '../../runtime/assert-known-options';
import { recordToolset } from '../metadata/tool-metadata';
import { assertOptionalStringList, readOptionalCapabilities } from './assert-decorator-options';

/** Options of `@Toolset`: defaults for every `@Tool` of the class. */
export interface ToolsetOptions {
  /** Tags every tool of the class gets (before its own). */
  tags?: string[];
  /**
   * Capabilities every tool of the class needs (before its own): any iterable of names, e.g.
   * `['records.write']` or a `Set`.
   */
  capabilities?: CapabilityList;
  /** A prefix for every tool name of the class. */
  namePrefix?: string;
}

/** The options of `@Toolset`, and advice for the names people pass instead. */
const TOOLSET_OPTIONS = defineKnownOptions<ToolsetOptions>(
  '@Toolset()',
  { tags: true, capabilities: true, namePrefix: true },
  { prefix: "use namePrefix (prepended to every tool name of the class, e.g. 'crm_')" },
);

/**
 * Sets class-level defaults (tags, capabilities, a name prefix) for the class's `@Tool` methods.
 *
 * @throws ToolDefinitionError for options of the wrong kind or not known, or a name prefix outside
 *   `[A-Za-z0-9_-]`.
 */
export function Toolset(options: ToolsetOptions = {}): ClassDecorator {
  if (typeof options !== 'object' || options === null) {
    throw new ToolDefinitionError(
      "@Toolset() options must be an object, e.g. @Toolset({ tags: ['travel'] }).",
    );
  }
  assertKnownOptions(options, TOOLSET_OPTIONS);
  if (options.namePrefix !== undefined && !/^[A-Za-z0-9_-]{0,32}$/.test(options.namePrefix)) {
    throw new ToolDefinitionError(
      `@Toolset({ namePrefix: ${JSON.stringify(options.namePrefix)} }) may only use [A-Za-z0-9_-], at most 32 characters.`,
    );
  }
  assertOptionalStringList(options.tags, '@Toolset()', 'tags', "['travel']");
  const capabilities = readOptionalCapabilities(options.capabilities, '@Toolset()');
  const record = Object.freeze({
    tags: options.tags ? Object.freeze([...options.tags]) : undefined,
    capabilities,
    namePrefix: options.namePrefix,
  });
  return (target) => {
    recordToolset(target, record);
  };
}
