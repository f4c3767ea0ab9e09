import { ToolDefinitionError } from '../../errors/tool-definition-error';
import { ToolNotFoundError } from '../../errors/tool-not-found-error';
import type { BaseTool } from '../base-tool';
import type { SchemaManifest } from '../manifest/schema-manifest';
import { assertToolName } from '../tool-name';
import { scanTools } from './scan-tools';

/** Options of {@link ToolRegistry}. */
export interface ToolRegistryOptions {
  /** Schemas from `protolink schemas`, used when scanning toolsets. */
  manifest?: SchemaManifest;
}

/** Options of {@link ToolRegistry.register}. */
export interface RegisterToolOptions {
  /** Replace a tool that has the same name (otherwise a duplicate name is an error). */
  replace?: boolean;
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
    if (!options.replace && this.tools.has(tool.name)) {
      throw new ToolDefinitionError(
        `A tool named '${tool.name}' is already registered. Rename one of them (MCP adapters take a namePrefix) or register with { replace: true }.`,
        { toolName: tool.name },
      );
    }
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
    if (!options.replace) {
      for (const tool of tools) {
        if (this.tools.has(tool.name)) {
          throw new ToolDefinitionError(
            `A tool named '${tool.name}' is already registered; ${instance.constructor.name} cannot add it again.`,
            {
              toolName: tool.name,
            },
          );
        }
      }
    }
    for (const tool of tools) this.tools.set(tool.name, tool);
    return tools;
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
}
