import { randomUUID } from './random-uuid';
import { ToolInputError } from '../errors/tool-input-error';
import { readCapabilityList } from '../capabilities/capability-name';
import type { CapabilityList } from '../capabilities/capability-name';
import { EMPTY_RECORD, copyData, deepFreeze, freezeCopy } from './deep-freeze';

/** A preview or attachment that an approver sees with an action (a diff, a rendered email…). */
export interface ActionArtifact {
  /** The action the artifact belongs to (filled in when left out). */
  actionId?: string;
  /** What kind of artifact this is (`preview`, `diff`, `text`…). */
  kind: string;
  /** The content. */
  content?: unknown;
  /** Free-form details. */
  [key: string]: unknown;
}

/** Options of {@link RunAction}. */
export interface RunActionOptions {
  /** What is being done, e.g. `tool.call`. */
  kind: string;
  /** The tool (or other target) name. */
  name: string;
  /** Data of the action; tool calls keep `{ arguments }`. */
  payload?: Record<string, unknown>;
  /**
   * Capabilities the action needs: any iterable of names such as `'records.write'` (an array, a `Set`;
   * lower-cased, de-duplicated).
   */
  capabilities?: CapabilityList | null;
  /** Previews for approvers. */
  artifacts?: ActionArtifact[];
  /** A human description. */
  description?: string | null;
  /** Free-form metadata. */
  metadata?: Record<string, unknown>;
  /** Restored id (a new UUID when absent). */
  actionId?: string;
  /** Restored creation time, ISO 8601 (now when absent). */
  createdAt?: string;
}

/** The JSON form of a {@link RunAction}. */
export interface RunActionDict {
  actionId: string;
  kind: string;
  name: string;
  description: string | null;
  payload: Record<string, unknown>;
  capabilities: string[];
  artifacts: ActionArtifact[];
  metadata: Record<string, unknown>;
  createdAt: string;
}

const EMPTY_LIST: readonly never[] = Object.freeze([]);

function normalizeCapabilityList(capabilities: unknown, actionName: string): readonly string[] {
  const read = readCapabilityList(capabilities);
  if (!read.ok) throw new ToolInputError(`RunAction '${actionName}': ${read.problem}.`);
  return read.capabilities;
}

/**
 * One thing an agent is about to do, as the policy and approvers see it. Immutable: every field is a
 * read-only accessor over private state, and payload, artifacts and metadata are frozen copies. The id
 * and the ISO creation time are produced on first read (both cost more than the rest of a small action).
 */
export class RunAction {
  #actionId: string | undefined;
  readonly #kind: string;
  readonly #name: string;
  readonly #description: string | null;
  readonly #payload: Readonly<Record<string, unknown>>;
  readonly #capabilities: readonly string[];
  readonly #artifacts: readonly Readonly<ActionArtifact>[];
  readonly #metadata: Readonly<Record<string, unknown>>;
  readonly #createdAtText: string | undefined;
  readonly #createdAtMs: number;

  /** @throws ToolInputError when `kind` or `name` is missing, or a capability is not a capability name. */
  constructor(options: RunActionOptions) {
    if (typeof options?.kind !== 'string' || options.kind === '') {
      throw new ToolInputError(
        "A RunAction needs a kind, e.g. new RunAction({ kind: 'tool.call', name: 'book_hotel' }).",
      );
    }
    if (typeof options.name !== 'string' || options.name === '') {
      throw new ToolInputError(`A RunAction of kind '${options.kind}' needs a name.`);
    }
    this.#actionId = options.actionId;
    this.#kind = options.kind;
    this.#name = options.name;
    this.#description = options.description ?? null;
    this.#payload = options.payload ? freezeCopy(options.payload) : EMPTY_RECORD;
    this.#capabilities = normalizeCapabilityList(options.capabilities, options.name);
    this.#artifacts =
      options.artifacts && options.artifacts.length
        ? Object.freeze(
            options.artifacts.map((artifact) =>
              deepFreeze({ ...copyData(artifact), actionId: artifact.actionId ?? this.actionId }),
            ),
          )
        : EMPTY_LIST;
    this.#metadata = options.metadata ? freezeCopy(options.metadata) : EMPTY_RECORD;
    this.#createdAtText = options.createdAt;
    this.#createdAtMs = options.createdAt ? Date.parse(options.createdAt) : Date.now();
  }

  /** Unique id of the action (a UUID unless restored). */
  get actionId(): string {
    return (this.#actionId ??= randomUUID());
  }

  /** What is being done, e.g. `tool.call`. */
  get kind(): string {
    return this.#kind;
  }

  /** The tool (or other target) name. */
  get name(): string {
    return this.#name;
  }

  /** A human description, or null. */
  get description(): string | null {
    return this.#description;
  }

  /** Data of the action (frozen); tool calls keep `{ arguments }`. */
  get payload(): Readonly<Record<string, unknown>> {
    return this.#payload;
  }

  /** Capabilities the action needs (frozen, de-duplicated). */
  get capabilities(): readonly string[] {
    return this.#capabilities;
  }

  /** Previews for approvers (frozen), each with its `actionId`. */
  get artifacts(): readonly Readonly<ActionArtifact>[] {
    return this.#artifacts;
  }

  /** Free-form metadata (frozen). */
  get metadata(): Readonly<Record<string, unknown>> {
    return this.#metadata;
  }

  /** When the action was created (ISO 8601). */
  get createdAt(): string {
    return this.#createdAtText ?? new Date(this.#createdAtMs).toISOString();
  }

  /** Returns a copy with these artifacts added. */
  withArtifacts(artifacts: ActionArtifact[]): RunAction {
    return new RunAction({ ...this.toOptions(), artifacts: [...this.artifacts, ...artifacts] });
  }

  /**
   * Returns a copy whose capabilities are these (normalized).
   *
   * @throws ToolInputError when `capabilities` is not an iterable of capability names.
   */
  withCapabilities(capabilities: CapabilityList): RunAction {
    return new RunAction({ ...this.toOptions(), capabilities });
  }

  /** Returns a copy with this payload. */
  withPayload(payload: Record<string, unknown>): RunAction {
    return new RunAction({ ...this.toOptions(), payload });
  }

  /** Returns the JSON form. */
  toDict(): RunActionDict {
    return {
      actionId: this.actionId,
      kind: this.kind,
      name: this.name,
      description: this.description,
      payload: copyData(this.payload) as Record<string, unknown>,
      capabilities: [...this.capabilities],
      artifacts: this.artifacts.map((artifact) => copyData(artifact) as ActionArtifact),
      metadata: copyData(this.metadata) as Record<string, unknown>,
      createdAt: this.createdAt,
    };
  }

  /** Rebuilds an action from {@link toDict} output. @throws ToolInputError for malformed data. */
  static fromDict(data: unknown): RunAction {
    if (typeof data !== 'object' || data === null)
      throw new ToolInputError('RunAction.fromDict() needs an object.');
    const record = data as Partial<RunActionDict>;
    return new RunAction({
      kind: record.kind as string,
      name: record.name as string,
      description: record.description ?? null,
      payload: record.payload,
      capabilities: record.capabilities,
      artifacts: record.artifacts,
      metadata: record.metadata,
      actionId: record.actionId,
      createdAt: record.createdAt,
    });
  }

  private toOptions(): RunActionOptions {
    return {
      kind: this.kind,
      name: this.name,
      description: this.description,
      payload: this.payload as Record<string, unknown>,
      capabilities: this.capabilities,
      artifacts: this.artifacts as ActionArtifact[],
      metadata: this.metadata as Record<string, unknown>,
      actionId: this.actionId,
      createdAt: this.createdAt,
    };
  }
}
