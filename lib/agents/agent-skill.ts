import { ToolInputError } from '../errors/tool-input-error';
import { copyData } from '../runtime/deep-freeze';
import type { BaseTool } from '../tools/base-tool';
import type { JsonSchema } from '../tools/json-schema';

/** Options of {@link AgentSkill}. */
export interface AgentSkillOptions {
  /** Stable id (a tool's name for tool skills). */
  id: string;
  /** A human name (defaults to the id; A2A requires one). */
  name?: string;
  /** What the skill does. */
  description?: string | null;
  /** Labels. */
  tags?: readonly string[] | null;
  /** Example calls or values. */
  examples?: readonly unknown[] | null;
  /** JSON Schema of the input. */
  inputSchema?: JsonSchema | null;
  /** JSON Schema of the output. */
  outputSchema?: JsonSchema | null;
}

/** The A2A JSON form of an {@link AgentSkill} (camelCase). */
export interface AgentSkillJson {
  id: string;
  name: string;
  description: string;
  tags: string[];
  examples: unknown[];
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
}

/** One thing an agent can do, as advertised on its card. Immutable. */
export class AgentSkill {
  /** Stable id. */
  readonly id: string;
  /** Human name. */
  readonly name: string;
  /** What the skill does. */
  readonly description: string;
  /** Labels. */
  readonly tags: readonly string[];
  /** Example calls or values. */
  readonly examples: readonly unknown[];
  /** JSON Schema of the input (`{}` when unknown). */
  readonly inputSchema: Readonly<JsonSchema>;
  /** JSON Schema of the output (`{}` when unknown). */
  readonly outputSchema: Readonly<JsonSchema>;

  /** @throws ToolInputError when the id is missing. */
  constructor(options: AgentSkillOptions) {
    if (
      typeof options !== 'object' ||
      options === null ||
      typeof options.id !== 'string' ||
      options.id.trim() === ''
    ) {
      throw new ToolInputError(
        "An AgentSkill needs a non-empty id, e.g. new AgentSkill({ id: 'book_hotel', description: '…' }).",
      );
    }
    this.id = options.id;
    this.name = typeof options.name === 'string' && options.name !== '' ? options.name : options.id;
    this.description = typeof options.description === 'string' ? options.description : '';
    this.tags = Object.freeze([...(options.tags ?? [])].map(String));
    this.examples = Object.freeze(copyData([...(options.examples ?? [])]));
    this.inputSchema = Object.freeze(copyData(options.inputSchema ?? {}));
    this.outputSchema = Object.freeze(copyData(options.outputSchema ?? {}));
    Object.freeze(this);
  }

  /** Builds the skill that advertises a tool: its name, description (or `Tool: <name>`), tags, examples, schemas. */
  static fromTool(tool: BaseTool): AgentSkill {
    return new AgentSkill({
      id: tool.name,
      description: tool.description || `Tool: ${tool.name}`,
      tags: tool.tags ?? [],
      examples: tool.examples ?? [],
      inputSchema: tool.inputSchema ?? {},
      outputSchema: tool.outputSchema ?? {},
    });
  }

  /** Returns the A2A JSON form. */
  toJSON(): AgentSkillJson {
    return {
      id: this.id,
      name: this.name,
      description: this.description,
      tags: [...this.tags],
      examples: copyData([...this.examples]),
      inputSchema: copyData(this.inputSchema) as JsonSchema,
      outputSchema: copyData(this.outputSchema) as JsonSchema,
    };
  }

  /**
   * Reads the JSON form (camelCase; snake_case `input_schema`/`output_schema` accepted too).
   *
   * @throws ToolInputError naming the field (prefixed with `field`).
   */
  static fromJSON(data: unknown, field = 'skill'): AgentSkill {
    if (typeof data !== 'object' || data === null || Array.isArray(data))
      throw new ToolInputError(`${field} must be an object such as { id, description }.`);
    const record = data as Record<string, unknown>;
    if (typeof record.id !== 'string' || record.id.trim() === '')
      throw new ToolInputError(`${field}.id must be a non-empty string.`);
    for (const key of ['tags', 'examples'] as const) {
      if (record[key] !== undefined && record[key] !== null && !Array.isArray(record[key]))
        throw new ToolInputError(`${field}.${key} must be an array.`);
    }
    const inputSchema = record.inputSchema ?? record.input_schema;
    const outputSchema = record.outputSchema ?? record.output_schema;
    for (const [key, value] of [
      ['inputSchema', inputSchema],
      ['outputSchema', outputSchema],
    ] as const) {
      if (value !== undefined && value !== null && (typeof value !== 'object' || Array.isArray(value))) {
        throw new ToolInputError(`${field}.${key} must be a JSON Schema object.`);
      }
    }
    return new AgentSkill({
      id: record.id,
      name: typeof record.name === 'string' ? record.name : undefined,
      description: typeof record.description === 'string' ? record.description : '',
      tags: record.tags as string[] | undefined,
      examples: record.examples as unknown[] | undefined,
      inputSchema: inputSchema as JsonSchema | undefined,
      outputSchema: outputSchema as JsonSchema | undefined,
    });
  }
}
