import type { ProtolinkErrorOptions } from './protolink-error';
import { ToolInputError } from './tool-input-error';

/** Options of {@link ToolNotFoundError}. */
export interface ToolNotFoundErrorOptions extends ProtolinkErrorOptions {
  /** The name that was asked for. */
  toolName: string;
  /** The names that do exist, listed in the message. */
  availableTools: readonly string[];
}

/** A tool name that no registry or agent knows; the message lists the tools that exist. */
export class ToolNotFoundError extends ToolInputError {
  override readonly name: string = 'ToolNotFoundError';
  override readonly code: string = 'TOOL_NOT_FOUND';
  /** The names that do exist. */
  readonly availableTools: readonly string[];

  constructor(options: ToolNotFoundErrorOptions) {
    const available = [...options.availableTools].sort();
    const hint = available.length
      ? `Available tools: ${available.join(', ')}.`
      : 'No tools are registered; add one with addTool() or addToolset().';
    super(`Unknown tool '${options.toolName}'. ${hint}`, options);
    this.availableTools = Object.freeze(available);
  }

  protected override details(): Record<string, unknown> {
    return { availableTools: [...this.availableTools] };
  }
}
