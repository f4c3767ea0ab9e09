import { loadYaml } from '../../runtime/lazy-require';
import { ToolInputError } from '../../errors/tool-input-error';
import type { AgentDict } from './agent-dict';

/** The longest agent YAML text read (a configuration file, not a data dump). */
export const MAX_AGENT_YAML_CHARS = 1_000_000;

/** Writes agent data as YAML text. */
export function agentDictToYaml(dict: AgentDict): string {
  return loadYaml().stringify(dict, { aliasDuplicateObjects: false });
}

/** Options of {@link parseAgentYaml}. */
export interface ParseAgentYamlOptions {
  /** The file the text was read from, named in messages (`Agent.fromYAMLFile`); absent for text. */
  file?: string;
}

/**
 * Parses YAML text into plain data (aliases bounded, one document only).
 *
 * @throws ToolInputError when the text is not YAML or not a mapping; for text given directly that is a single
 *   line looking like a file path (`agent.yaml`, `./config/agent.yml`), the message says to use
 *   `Agent.fromYAMLFile`.
 */
export function parseAgentYaml(text: unknown, options: ParseAgentYamlOptions = {}): unknown {
  if (typeof text !== 'string')
    throw new ToolInputError(
      `Agent.fromYAML() needs YAML text, got ${text === null ? 'null' : typeof text}.`,
    );
  const label = options.file === undefined ? 'The agent YAML' : `The agent YAML file '${options.file}'`;
  // Only for text given directly: a file whose content looks like a path is not a mistaken call.
  const pathHint = (): string => (options.file === undefined ? describePathLike(text) : '');
  if (text.length > MAX_AGENT_YAML_CHARS) {
    throw new ToolInputError(
      `${label} is ${text.length} characters long; at most ${MAX_AGENT_YAML_CHARS} are read. An agent's configuration is small: check that this is the right file.`,
    );
  }
  let document;
  try {
    document = loadYaml().parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  } catch (error) {
    throw new ToolInputError(`${label} could not be parsed: ${(error as Error).message}${pathHint()}`, {
      cause: error,
    });
  }
  if (document.errors.length) {
    throw new ToolInputError(`${label} is not valid YAML: ${document.errors[0].message}${pathHint()}`, {
      cause: document.errors[0],
    });
  }
  let data: unknown;
  try {
    data = document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    throw new ToolInputError(`${label} could not be read: ${(error as Error).message}`, {
      cause: error,
    });
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new ToolInputError(
      `${label} must be a mapping with card, tools and (optionally) policy, transport, skills, mcpServers.${pathHint()}`,
    );
  }
  return data;
}

/**
 * A sentence for text that looks like a file path rather than YAML: one line, no `: ` (a mapping entry), and
 * either a `.yaml`/`.yml` ending or a path start (`./`, `../`, `/`, `~/`, `C:\`); else an empty string.
 */
function describePathLike(text: string): string {
  const line = text.trim();
  if (line === '' || line.length > 4096 || /[\r\n]/.test(line) || /:\s/.test(line)) return '';
  const pathStart = /^(\.{1,2}[\\/]|[\\/]|~[\\/]|[A-Za-z]:[\\/])/.test(line);
  if (!pathStart && !/\.ya?ml$/i.test(line)) return '';
  const shown = JSON.stringify(line.length > 200 ? `${line.slice(0, 200)}…` : line);
  return ` This looks like a file path; use Agent.fromYAMLFile(${shown}) to read the file (Agent.fromYAML takes the YAML text itself).`;
}
