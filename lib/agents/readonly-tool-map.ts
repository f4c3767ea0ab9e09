import type { BaseTool } from '../tools/base-tool';
import type { ToolRegistry } from '../tools/registry/tool-registry';

/** A live, read-only `Map` view of an agent's tools: it reflects later changes but cannot make them. */
export class ReadonlyToolMap implements ReadonlyMap<string, BaseTool> {
  constructor(private readonly registry: ToolRegistry) {}

  /** How many tools there are. */
  get size(): number {
    return this.registry.size;
  }

  /** The tool of that name, or undefined. */
  get(name: string): BaseTool | undefined {
    return this.registry.get(name);
  }

  /** Whether a tool of that name exists. */
  has(name: string): boolean {
    return this.registry.has(name);
  }

  /** The names, in registration order. */
  keys(): MapIterator<string> {
    return this.registry.names()[Symbol.iterator]() as MapIterator<string>;
  }

  /** The tools, in registration order. */
  values(): MapIterator<BaseTool> {
    return this.registry.list()[Symbol.iterator]() as MapIterator<BaseTool>;
  }

  /** `[name, tool]` pairs, in registration order. */
  entries(): MapIterator<[string, BaseTool]> {
    return this.registry
      .list()
      .map((tool): [string, BaseTool] => [tool.name, tool])
      [Symbol.iterator]() as MapIterator<[string, BaseTool]>;
  }

  /** Calls `callback` for each tool. */
  forEach(
    callback: (tool: BaseTool, name: string, map: ReadonlyMap<string, BaseTool>) => void,
    thisArg?: unknown,
  ): void {
    for (const tool of this.registry.list()) callback.call(thisArg, tool, tool.name, this);
  }

  /** Iterates `[name, tool]` pairs. */
  [Symbol.iterator](): MapIterator<[string, BaseTool]> {
    return this.entries();
  }
}
