import type { RunContext } from '../../runtime/run-context';
import { Context } from '../../tools/decorators/context.decorator';
import { Param } from '../../tools/decorators/param.decorator';
import { Tool } from '../../tools/decorators/tool.decorator';
import type { MCPToolDefinition } from './mcp-tool-definition';

/** One remote tool as the generated class declares it. */
export interface McpClassEntry {
  /** The definition as the server sent it. */
  readonly definition: MCPToolDefinition;
  /** The local (provider-safe) name, also the generated method's name. */
  readonly localName: string;
  /** Capabilities of the tool. */
  readonly capabilities: readonly string[];
  /** Metadata kept on the tool (`mcp`, `annotations`). */
  readonly metadata: Record<string, unknown>;
}

/**
 * Sends one call to the server: the remote name, validated arguments, and the run (its cancellation is
 * followed through its cancel listeners: reading `context.signal` would build an AbortSignal per call).
 */
export type McpInvoke = (
  remoteName: string,
  args: Record<string, unknown>,
  context: RunContext | undefined,
) => Promise<unknown>;

/**
 * Generates at run time the same class shape a developer writes by hand: one method per remote tool,
 * carrying `@Tool` metadata (the server's schemas kept unchanged, tags `['mcp']`), an unnamed `@Param`
 * for the whole argument object and `@Context` for the run. `scanTools` turns an instance into NativeTools,
 * so MCP tools get the same validation, policy, approval, budget and cancellation as native ones.
 */
export function buildMcpToolClass(
  className: string,
  entries: readonly McpClassEntry[],
  invoke: McpInvoke,
): new () => object {
  const generated = class {};
  Object.defineProperty(generated, 'name', { value: className });
  const prototype = generated.prototype as Record<string, unknown>;
  for (const entry of entries) {
    const remoteName = entry.definition.name;
    const method = function (args: Record<string, unknown>, context?: RunContext): Promise<unknown> {
      return invoke(remoteName, args, context);
    };
    Object.defineProperty(prototype, entry.localName, {
      value: method,
      writable: true,
      configurable: true,
      enumerable: false,
    });
    const descriptor = Object.getOwnPropertyDescriptor(prototype, entry.localName) as PropertyDescriptor;
    Tool({
      name: entry.localName,
      description: entry.definition.description,
      inputSchema: entry.definition.inputSchema,
      outputSchema: entry.definition.outputSchema,
      tags: ['mcp'],
      capabilities: [...entry.capabilities],
      metadata: entry.metadata,
      preserveSchema: true,
      task: entry.definition.taskSupport,
    })(prototype, entry.localName, descriptor);
    Param(undefined, { type: 'object' })(prototype, entry.localName, 0);
    Context()(prototype, entry.localName, 1);
  }
  return generated as unknown as new () => object;
}
