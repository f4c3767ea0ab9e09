import type { ProtolinkErrorOptions } from './protolink-error';
import { ToolInputError } from './tool-input-error';

/** Options of {@link PromptNotFoundError}. */
export interface PromptNotFoundErrorOptions extends ProtolinkErrorOptions {
  /** The name that was asked for. */
  promptName: string;
  /** The names that do exist, listed in the message. */
  availablePrompts: readonly string[];
}

/** A prompt name that no `@Prompt` of the agent declares; the message lists the prompts that exist. */
export class PromptNotFoundError extends ToolInputError {
  override readonly name: string = 'PromptNotFoundError';
  override readonly code: string = 'PROMPT_NOT_FOUND';
  /** The name that was asked for. */
  readonly promptName: string;
  /** The names that do exist. */
  readonly availablePrompts: readonly string[];

  constructor(options: PromptNotFoundErrorOptions) {
    const available = [...options.availablePrompts].sort();
    const hint = available.length
      ? `Available prompts: ${available.join(', ')}.`
      : 'No prompts are registered; declare one with @Prompt on a service given to addToolset().';
    super(`Unknown prompt '${options.promptName}'. ${hint}`, options);
    this.promptName = options.promptName;
    this.availablePrompts = Object.freeze(available);
  }

  protected override details(): Record<string, unknown> {
    return { promptName: this.promptName, availablePrompts: [...this.availablePrompts] };
  }
}
