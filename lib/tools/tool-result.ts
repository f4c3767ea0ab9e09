import { ToolInputError } from '../errors/tool-input-error';
import {
  assertPlainRecord,
  toContentPart,
  toDataPart,
  toResourceLinkPart,
  toResourcePart,
} from './tool-content-part';
import type { ResourceInput, ResourceLinkInput, ToolContentPart } from './tool-content-part';

export type { ResourceInput, ResourceLinkInput, ToolContentPart } from './tool-content-part';

/** Marks ToolResult instances, also across two copies of the package (`Symbol.for` is process-wide). */
const TOOL_RESULT_BRAND = Symbol.for('protolink:tool-result');

/** The JSON form of a {@link ToolResult}: MCP's `CallToolResult` content and structured content. */
export interface ToolResultJson {
  /** The content parts, in order. */
  content: ToolContentPart[];
  /** The structured value matching the tool's output schema, when there is one. */
  structuredContent?: Record<string, unknown>;
}

/**
 * A tool's rich result: MCP content parts (text, image, audio, embedded resources, resource links), in
 * order, plus optional `structuredContent`. Return one from a tool to send more than JSON: served over MCP
 * the parts go out as they are, `MCPToolAdapter` gives them back, and the model loop converts them to what
 * each provider accepts. Instances are frozen; build them with the static helpers.
 *
 * @example
 * ```ts
 * return ToolResult.of('The chart:', ToolResult.image(pngBytes, 'image/png'));
 * ```
 */
export class ToolResult {
  /** The content parts, in order (frozen). */
  readonly content: readonly ToolContentPart[];
  /** The structured value (frozen copy), or undefined. */
  readonly structuredContent: Readonly<Record<string, unknown>> | undefined;

  private constructor(
    content: readonly ToolContentPart[],
    structuredContent: Readonly<Record<string, unknown>> | undefined,
  ) {
    this.content = Object.freeze([...content]);
    this.structuredContent = structuredContent;
    Object.defineProperty(this, TOOL_RESULT_BRAND, { value: true });
    Object.freeze(this);
  }

  /** Returns a result of one text part. @throws ToolInputError when `text` is not a string. */
  static text(text: string): ToolResult {
    return new ToolResult([toContentPart(text, 'ToolResult.text')], undefined);
  }

  /**
   * Returns a result of one image part.
   *
   * @param data the bytes, or their base64 text.
   * @param mimeType an `image/*` type, e.g. `image/png`.
   * @throws ToolInputError when the data is empty or not base64, or the MIME type is not `image/*`.
   */
  static image(data: Uint8Array | string, mimeType: string): ToolResult {
    return new ToolResult([toDataPart('image', data, mimeType)], undefined);
  }

  /**
   * Returns a result of one audio part.
   *
   * @param data the bytes, or their base64 text.
   * @param mimeType an `audio/*` type, e.g. `audio/wav`.
   * @throws ToolInputError when the data is empty or not base64, or the MIME type is not `audio/*`.
   */
  static audio(data: Uint8Array | string, mimeType: string): ToolResult {
    return new ToolResult([toDataPart('audio', data, mimeType)], undefined);
  }

  /**
   * Returns a result of one embedded resource: text, or a blob (bytes or base64).
   *
   * @throws ToolInputError when the URI is missing, both or neither of `text`/`blob` are given, the blob is
   * not base64, or the MIME type is malformed.
   */
  static resource(resource: ResourceInput): ToolResult {
    return new ToolResult([toResourcePart(resource)], undefined);
  }

  /**
   * Returns a result of one resource link (a URI the client may read later).
   *
   * @throws ToolInputError when the URI or name is missing, or an optional field has the wrong type.
   */
  static resourceLink(link: ResourceLinkInput): ToolResult {
    return new ToolResult([toResourceLinkPart(link)], undefined);
  }

  /**
   * Concatenates results, content parts and strings (text parts) into one result, in order. Structured
   * content is kept when exactly one of the given results carries it.
   *
   * @throws ToolInputError when a part is malformed, or two results carry structured content.
   */
  static of(...parts: (ToolResult | ToolContentPart | string)[]): ToolResult {
    const content: ToolContentPart[] = [];
    let structured: Readonly<Record<string, unknown>> | undefined;
    parts.forEach((part, index) => {
      if (ToolResult.isToolResult(part)) {
        content.push(...part.content);
        if (part.structuredContent === undefined) return;
        if (structured !== undefined) {
          throw new ToolInputError(
            'ToolResult.of received two results with structuredContent; a result carries at most one. Combine the values and call withStructuredContent once.',
          );
        }
        structured = part.structuredContent;
        return;
      }
      content.push(toContentPart(part, `ToolResult.of argument ${index}`));
    });
    return new ToolResult(content, structured);
  }

  /** Whether a value is a ToolResult, including one made by another copy of the package. */
  static isToolResult(value: unknown): value is ToolResult {
    if (value instanceof ToolResult) return true;
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[TOOL_RESULT_BRAND] === true &&
      Array.isArray((value as { content?: unknown }).content)
    );
  }

  /**
   * Returns a copy carrying `structuredContent` (a plain JSON object, copied and frozen), which must
   * match the tool's output schema when the tool has one.
   *
   * @throws ToolInputError when the value is not a plain, JSON-serializable object.
   */
  withStructuredContent(value: Record<string, unknown>): ToolResult {
    assertPlainRecord(value, 'withStructuredContent');
    let copy: Record<string, unknown>;
    try {
      copy = JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
    } catch (error) {
      throw new ToolInputError(
        `withStructuredContent received a value that cannot be sent as JSON (${(error as Error).message}); pass plain data without cycles or bigints.`,
        { cause: error },
      );
    }
    return new ToolResult(this.content, deepFreeze(copy));
  }

  /** Returns the MCP-shaped JSON form (fresh, mutable copies of the parts). */
  toJSON(): ToolResultJson {
    const json: ToolResultJson = {
      content: this.content.map((part) => JSON.parse(JSON.stringify(part)) as ToolContentPart),
    };
    if (this.structuredContent !== undefined)
      json.structuredContent = JSON.parse(JSON.stringify(this.structuredContent)) as Record<string, unknown>;
    return json;
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
