import { loadYaml } from '../../runtime/lazy-require';
import { ToolInputError } from '../../errors/tool-input-error';
import type { AgentDict } from './agent-dict';

/** The longest agent YAML text read (a configuration file, not a data dump). */
export const MAX_AGENT_YAML_CHARS = 1_000_000;

/** Writes agent data as YAML text. */
export function agentDictToYaml(dict: AgentDict): string {
  return loadYaml().stringify(dict, { aliasDuplicateObjects: false });
}

/**
 * Parses YAML text into plain data (aliases bounded, one document only).
 *
 * @throws ToolInputError when the text is not YAML or not a mapping.
 */
export function parseAgentYaml(text: unknown): unknown {
  if (typeof text !== 'string')
    throw new ToolInputError(
      `Agent.fromYAML() needs YAML text, got ${text === null ? 'null' : typeof text}.`,
    );
  if (text.length > MAX_AGENT_YAML_CHARS) {
    throw new ToolInputError(
      `The agent YAML is ${text.length} characters long; at most ${MAX_AGENT_YAML_CHARS} are read. An agent's configuration is small: check that this is the right file.`,
    );
  }
  let document;
  try {
    document = loadYaml().parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  } catch (error) {
    throw new ToolInputError(`The agent YAML could not be parsed: ${(error as Error).message}`, {
      cause: error,
    });
  }
  if (document.errors.length) {
    throw new ToolInputError(`The agent YAML is not valid YAML: ${document.errors[0].message}`, {
      cause: document.errors[0],
    });
  }
  let data: unknown;
  try {
    data = document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    throw new ToolInputError(`The agent YAML could not be read: ${(error as Error).message}`, {
      cause: error,
    });
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new ToolInputError(
      'The agent YAML must be a mapping with card, tools and (optionally) policy, transport, skills, mcpServers.',
    );
  }
  return data;
}
