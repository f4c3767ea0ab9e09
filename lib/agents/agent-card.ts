import { ToolInputError } from '../errors/tool-input-error';
import { copyData } from '../runtime/deep-freeze';
import { AgentSkill } from './agent-skill';
import type { AgentSkillJson, AgentSkillOptions } from './agent-skill';

/** Optional A2A features an agent supports. */
export interface AgentCapabilities {
  /** Streams responses. */
  streaming?: boolean;
  /** Sends push notifications. */
  pushNotifications?: boolean;
  /** Keeps a task's state history. */
  stateTransitionHistory?: boolean;
  /** Other flags. */
  [key: string]: unknown;
}

/** Options of {@link AgentCard}. */
export interface AgentCardOptions {
  /** The agent's name. */
  name: string;
  /** What the agent does. */
  description: string;
  /** Where the agent is reached (`http://127.0.0.1:8080`, `runtime://researcher`). */
  url: string;
  /** The agent's own version (default `1.0.0`). */
  version?: string;
  /** The A2A protocol version (default `0.3.0`). */
  protocolVersion?: string;
  /** The A2A transport at `url` (default `JSONRPC`). */
  preferredTransport?: string;
  /** Optional features. */
  capabilities?: AgentCapabilities;
  /** Advertised skills. */
  skills?: readonly (AgentSkill | AgentSkillOptions)[];
  /** Media types accepted (default `['text/plain']`). */
  defaultInputModes?: readonly string[];
  /** Media types produced (default `['text/plain']`). */
  defaultOutputModes?: readonly string[];
  /** Who runs the agent. */
  provider?: { organization: string; url?: string };
  /** Link to documentation. */
  documentationUrl?: string;
  /** Authentication schemes (descriptions only, never credentials). */
  securitySchemes?: Record<string, unknown>;
  /** Security requirements. */
  security?: Record<string, string[]>[];
}

/** The A2A JSON form of an {@link AgentCard} (served at `/.well-known/agent.json`). */
export interface AgentCardJson {
  protocolVersion: string;
  name: string;
  description: string;
  url: string;
  preferredTransport: string;
  version: string;
  capabilities: AgentCapabilities;
  defaultInputModes: string[];
  defaultOutputModes: string[];
  skills: AgentSkillJson[];
  provider?: { organization: string; url?: string };
  documentationUrl?: string;
  securitySchemes?: Record<string, unknown>;
  security?: Record<string, string[]>[];
}

/**
 * Describes an agent to others (A2A Agent Card): identity, where to reach it, and its skills. The
 * skills list changes only through {@link setSkill}/{@link removeSkill} (the Agent uses them in `'auto'` mode).
 */
export class AgentCard {
  /** The agent's name. */
  readonly name: string;
  /** What the agent does. */
  readonly description: string;
  /** Where the agent is reached. */
  readonly url: string;
  /** The agent's own version. */
  readonly version: string;
  /** The A2A protocol version. */
  readonly protocolVersion: string;
  /** The A2A transport at `url`. */
  readonly preferredTransport: string;
  /** Optional A2A features. */
  readonly capabilities: Readonly<AgentCapabilities>;
  /** Media types accepted. */
  readonly defaultInputModes: readonly string[];
  /** Media types produced. */
  readonly defaultOutputModes: readonly string[];
  /** Who runs the agent. */
  readonly provider: Readonly<{ organization: string; url?: string }> | undefined;
  /** Link to documentation. */
  readonly documentationUrl: string | undefined;
  /** Authentication schemes (descriptions, never credentials). */
  readonly securitySchemes: Readonly<Record<string, unknown>> | undefined;
  /** Security requirements. */
  readonly security: readonly Record<string, string[]>[] | undefined;
  private skillList: readonly AgentSkill[];

  /** @throws ToolInputError naming the missing or malformed field. */
  constructor(options: AgentCardOptions) {
    if (typeof options !== 'object' || options === null) {
      throw new ToolInputError(
        "new AgentCard() needs { name, description, url }, e.g. { name: 'researcher', description: '…', url: 'runtime://researcher' }.",
      );
    }
    for (const field of ['name', 'description', 'url'] as const) {
      if (typeof options[field] !== 'string' || options[field].trim() === '') {
        throw new ToolInputError(`AgentCard ${field} must be a non-empty string.`);
      }
    }
    this.name = options.name;
    this.description = options.description;
    this.url = options.url;
    this.version = optionalString(options.version, 'version') ?? '1.0.0';
    this.protocolVersion = optionalString(options.protocolVersion, 'protocolVersion') ?? '0.3.0';
    this.preferredTransport = optionalString(options.preferredTransport, 'preferredTransport') ?? 'JSONRPC';
    this.capabilities = Object.freeze(copyData(options.capabilities ?? {}));
    this.defaultInputModes = Object.freeze([...(options.defaultInputModes ?? ['text/plain'])]);
    this.defaultOutputModes = Object.freeze([...(options.defaultOutputModes ?? ['text/plain'])]);
    this.provider = options.provider ? Object.freeze(copyData(options.provider)) : undefined;
    this.documentationUrl = optionalString(options.documentationUrl, 'documentationUrl');
    this.securitySchemes = options.securitySchemes
      ? Object.freeze(copyData(options.securitySchemes))
      : undefined;
    this.security = options.security ? Object.freeze(copyData(options.security)) : undefined;
    this.skillList = Object.freeze(
      dedupeSkills(
        (options.skills ?? []).map((skill) => (skill instanceof AgentSkill ? skill : new AgentSkill(skill))),
      ),
    );
  }

  /** The advertised skills, in order. */
  get skills(): readonly AgentSkill[] {
    return this.skillList;
  }

  /** Adds a skill, or replaces the one with the same id in place. */
  setSkill(skill: AgentSkill): void {
    const index = this.skillList.findIndex((existing) => existing.id === skill.id);
    const next = [...this.skillList];
    if (index >= 0) next[index] = skill;
    else next.push(skill);
    this.skillList = Object.freeze(next);
  }

  /** Removes the skill with this id; returns whether there was one. */
  removeSkill(id: string): boolean {
    const next = this.skillList.filter((skill) => skill.id !== id);
    const removed = next.length !== this.skillList.length;
    this.skillList = Object.freeze(next);
    return removed;
  }

  /** Returns the A2A JSON form (camelCase). */
  toJSON(): AgentCardJson {
    const json: AgentCardJson = {
      protocolVersion: this.protocolVersion,
      name: this.name,
      description: this.description,
      url: this.url,
      preferredTransport: this.preferredTransport,
      version: this.version,
      capabilities: copyData(this.capabilities) as AgentCapabilities,
      defaultInputModes: [...this.defaultInputModes],
      defaultOutputModes: [...this.defaultOutputModes],
      skills: this.skillList.map((skill) => skill.toJSON()),
    };
    if (this.provider) json.provider = copyData(this.provider) as { organization: string; url?: string };
    if (this.documentationUrl) json.documentationUrl = this.documentationUrl;
    if (this.securitySchemes)
      json.securitySchemes = copyData(this.securitySchemes) as Record<string, unknown>;
    if (this.security) json.security = copyData(this.security) as Record<string, string[]>[];
    return json;
  }

  /**
   * Reads the A2A JSON form.
   *
   * @throws ToolInputError naming the malformed field (prefixed with `field`).
   */
  static fromJSON(data: unknown, field = 'card'): AgentCard {
    if (typeof data !== 'object' || data === null || Array.isArray(data)) {
      throw new ToolInputError(`${field} must be an object with name, description and url.`);
    }
    const record = data as Record<string, unknown>;
    for (const key of ['name', 'description', 'url'] as const) {
      if (typeof record[key] !== 'string' || (record[key] as string).trim() === '')
        throw new ToolInputError(`${field}.${key} must be a non-empty string.`);
    }
    for (const key of ['skills', 'defaultInputModes', 'defaultOutputModes', 'security'] as const) {
      if (record[key] !== undefined && !Array.isArray(record[key]))
        throw new ToolInputError(`${field}.${key} must be an array.`);
    }
    for (const key of ['capabilities', 'provider', 'securitySchemes'] as const) {
      const value = record[key];
      if (value !== undefined && (typeof value !== 'object' || value === null || Array.isArray(value))) {
        throw new ToolInputError(`${field}.${key} must be an object.`);
      }
    }
    for (const key of ['version', 'protocolVersion', 'preferredTransport', 'documentationUrl'] as const) {
      if (record[key] !== undefined && typeof record[key] !== 'string')
        throw new ToolInputError(`${field}.${key} must be a string.`);
    }
    const skills = ((record.skills as unknown[] | undefined) ?? []).map((skill, index) =>
      AgentSkill.fromJSON(skill, `${field}.skills[${index}]`),
    );
    return new AgentCard({ ...(record as unknown as AgentCardOptions), skills });
  }
}

function optionalString(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new ToolInputError(`AgentCard ${field} must be a string.`);
  return value;
}

function dedupeSkills(skills: AgentSkill[]): AgentSkill[] {
  const byId = new Map<string, AgentSkill>();
  for (const skill of skills) byId.set(skill.id, skill);
  return [...byId.values()];
}
