import { ToolDefinitionError } from '../../errors/tool-definition-error';
import { ToolNotFoundError } from '../../errors/tool-not-found-error';
import type { BaseTool } from '../base-tool';
import type { SchemaManifest } from '../manifest/schema-manifest';
import { readCapabilityList } from '../../capabilities/capability-name';
import { assertToolName } from '../tool-name';
import { scanTools } from './scan-tools';
import { toolSourceOf } from './tool-source';

/** Options of {@link ToolRegistry}. */
export interface ToolRegistryOptions {
  /** Schemas from `protolink schemas`, used when scanning toolsets. */
  manifest?: SchemaManifest;
}

/** Options of {@link ToolRegistry.register}. */
export interface RegisterToolOptions {
  /**
   * What happens to a tool already registered under the same name: `false` (default) refuses the new one;
   * `'same-source'` replaces it when both come from the same source (an MCP server listed again, a function
   * registered again) and refuses a tool from another source (native, built-in, another MCP server);
   * `true` replaces it whatever its source.
   */
  replace?: boolean | 'same-source';
}

/** Holds tools by name. An instance, never a global: create one per agent or application. */
export class ToolRegistry {
  private readonly tools = new Map<string, BaseTool>();
  private manifest: SchemaManifest | undefined;

  constructor(options: ToolRegistryOptions = {}) {
    this.manifest = options.manifest;
  }

  /** Uses a schema manifest for toolsets scanned from now on. */
  useManifest(manifest: SchemaManifest | undefined): void {
    this.manifest = manifest;
  }

  /**
   * Adds a tool (any object of the BaseTool shape).
   *
   * @throws ToolDefinitionError for a tool of the wrong shape, or a duplicate name without `replace`.
   */
  register(tool: BaseTool, options: RegisterToolOptions = {}): BaseTool {
    assertBaseTool(tool);
    this.assertNameFree(tool, options.replace ?? false, undefined);
    this.tools.set(tool.name, tool);
    return tool;
  }

  /**
   * Scans an instance's `@Tool` methods and registers them all (none are registered if any is invalid).
   *
   * @throws ToolDefinitionError when a tool is declared wrongly or a name is taken.
   */
  registerAll(instance: object, options: RegisterToolOptions = {}): BaseTool[] {
    const tools = scanTools(instance, { manifest: this.manifest });
    for (const tool of tools) this.assertNameFree(tool, options.replace ?? false, instance.constructor.name);
    for (const tool of tools) this.tools.set(tool.name, tool);
    return tools;
  }

  private assertNameFree(tool: BaseTool, replace: boolean | 'same-source', owner: string | undefined): void {
    const existing = this.tools.get(tool.name);
    if (existing === undefined || replace === true) return;
    if (replace === 'same-source') {
      const incoming = toolSourceOf(tool);
      const holder = toolSourceOf(existing);
      if (incoming.key === holder.key) return;
      throw new ToolDefinitionError(
        `Cannot register ${incoming.label} named '${tool.name}': the name is taken by ${holder.label}, and a tool from another source never silently replaces it (calls meant for one would reach the other, past its policy and approval rules). Give the tools distinct names with a namePrefix (an MCP adapter's namePrefix option, or @Toolset({ namePrefix })), rename one of them, or pass { replace: true } to replace it on purpose.`,
        { toolName: tool.name },
      );
    }
    throw new ToolDefinitionError(
      owner === undefined
        ? `A tool named '${tool.name}' is already registered. Rename one of them (MCP adapters take a namePrefix) or register with { replace: true }.`
        : `A tool named '${tool.name}' is already registered; ${owner} cannot add it again.`,
      { toolName: tool.name },
    );
  }

  /** Returns the tool of that name, or undefined. */
  get(name: string): BaseTool | undefined {
    return this.tools.get(name);
  }

  /**
   * Returns the tool of that name.
   *
   * @throws ToolNotFoundError naming the tools that exist.
   */
  resolve(name: string): BaseTool {
    const tool = this.tools.get(name);
    if (!tool) throw new ToolNotFoundError({ toolName: name, availableTools: [...this.tools.keys()] });
    return tool;
  }

  /** Whether a tool of that name is registered. */
  has(name: string): boolean {
    return this.tools.has(name);
  }

  /** All tools, in registration order. */
  list(): BaseTool[] {
    return [...this.tools.values()];
  }

  /** The registered names, in registration order. */
  names(): string[] {
    return [...this.tools.keys()];
  }

  /** Removes a tool; returns whether it was there. */
  remove(name: string): boolean {
    return this.tools.delete(name);
  }

  /** How many tools are registered. */
  get size(): number {
    return this.tools.size;
  }
}

function assertBaseTool(tool: unknown): asserts tool is BaseTool {
  if (typeof tool !== 'object' || tool === null) {
    throw new ToolDefinitionError(
      `Only tool objects can be registered, got ${tool === null ? 'null' : typeof tool}. Use new NativeTool({...}) or registerAll(instance).`,
    );
  }
  const candidate = tool as Partial<BaseTool>;
  assertToolName(candidate.name, 'The registered tool');
  if (typeof candidate.call !== 'function') {
    throw new ToolDefinitionError(
      `Tool '${candidate.name}' has no call(args, options) method, so it cannot be registered.`,
      {
        toolName: candidate.name,
      },
    );
  }
  // An array only: the property is read again on every call, and a generator would be used up here.
  const capabilities = readCapabilityList(candidate.capabilities, { arrayOnly: true });
  if (!capabilities.ok) {
    throw new ToolDefinitionError(`Tool '${candidate.name}': ${capabilities.problem}.`, {
      toolName: candidate.name,
    });
  }
}
