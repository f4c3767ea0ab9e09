import { ToolInputError } from '../../errors/tool-input-error';
import type { ToolRuntimeError } from '../../errors/tool-runtime-error';
import { countBase64Bytes } from '../../tools/tool-content-part';
import type { ToolContentPart } from '../../tools/tool-content-part';

/** What one answer may hold, and how its reader words a failure. */
export interface McpResultBudgetOptions {
  /** Text budget of the whole answer; longer text is cut with a marker. */
  readonly maxResultChars: number;
  /** Most decoded bytes of binary data (blobs, images, audio) in the whole answer. */
  readonly maxBinaryBytes: number;
  /** The error of a malformed or oversized answer, `what` saying what the server did. */
  readonly fail: (what: string, cause?: unknown) => ToolRuntimeError;
  /** What the server did when its binary data passes `maxBinaryBytes` (the words differ between readers). */
  readonly tooMuchBinary: (maxBinaryBytes: number) => string;
}

/**
 * The text and binary budgets of one answer (a tool's result, a resource read, a prompt's messages), shared
 * by its parts: text past the text budget is cut with a marker, binary data past the binary budget fails
 * the answer, and a part that is not one of MCP's content shapes fails it too.
 */
export class McpResultBudget {
  private remainingChars: number;
  private binaryBytes = 0;
  /** Whether some text was cut. */
  truncated = false;

  constructor(private readonly options: McpResultBudgetOptions) {
    this.remainingChars = options.maxResultChars;
  }

  /** Cuts text to what is left of the text budget, and spends it. */
  cut(text: string): string {
    const kept = capText(text, this.remainingChars);
    if (kept !== text) this.truncated = true;
    this.remainingChars = Math.max(0, this.remainingChars - text.length);
    return kept;
  }

  /**
   * Spends base64 data's decoded bytes from the binary budget.
   *
   * @throws ToolRuntimeError when the answer's binary data passes `maxBinaryBytes`.
   */
  countBinary(base64: string): void {
    this.binaryBytes += countBase64Bytes(base64);
    if (this.binaryBytes > this.options.maxBinaryBytes)
      throw this.failure(this.options.tooMuchBinary(this.options.maxBinaryBytes));
  }

  /**
   * Counts a part against the budgets; its text is cut (and the part copied, frozen).
   *
   * @throws ToolRuntimeError when the answer's binary data passes `maxBinaryBytes`.
   */
  keep(part: ToolContentPart): ToolContentPart {
    if (part.type === 'text') return Object.freeze({ type: 'text', text: this.cut(part.text) });
    if (part.type === 'image' || part.type === 'audio') this.countBinary(part.data);
    if (part.type === 'resource') {
      const resource = part.resource;
      if ('blob' in resource) this.countBinary(resource.blob);
      else
        return Object.freeze({
          type: 'resource',
          resource: Object.freeze({ ...resource, text: this.cut(resource.text) }),
        });
    }
    return part;
  }

  /**
   * Reads one part of the answer.
   *
   * @throws ToolRuntimeError saying `where` the malformed part is, when `read` throws a ToolInputError.
   */
  checkPart(read: () => ToolContentPart, where: string): ToolContentPart {
    try {
      return read();
    } catch (error) {
      if (!(error instanceof ToolInputError)) throw error;
      throw this.failure(`sent a malformed ${where}: ${error.message}`, error);
    }
  }

  /** The error of the answer, `what` saying what the server did. */
  failure(what: string, cause?: unknown): ToolRuntimeError {
    return this.options.fail(what, cause);
  }
}

/** Cuts text longer than `max` characters, marking how much was dropped. */
export function capText(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… [cut: ${text.length - max} more characters]`;
}
