import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ToolInputError } from '../../errors/tool-input-error';
import { MAX_AGENT_YAML_CHARS } from './agent-yaml';

/** The largest agent YAML file read, in bytes: {@link MAX_AGENT_YAML_CHARS} characters of up to 4 bytes. */
export const MAX_AGENT_YAML_FILE_BYTES = MAX_AGENT_YAML_CHARS * 4;

/**
 * Reads an agent YAML file as UTF-8 text (a byte order mark dropped), after checking that it is a file of at
 * most {@link MAX_AGENT_YAML_FILE_BYTES} bytes. A relative path is resolved from the working directory.
 *
 * @throws ToolInputError naming the path as given and as resolved when the file is missing, is a directory,
 *   is too large or cannot be read.
 */
export function readAgentYamlFile(path: unknown): string {
  if (typeof path !== 'string' || path.trim() === '') {
    throw new ToolInputError(
      `Agent.fromYAMLFile() needs the path of a YAML file, got ${describePath(path)}. To restore from YAML text, use Agent.fromYAML(text).`,
    );
  }
  const absolute = resolve(path);
  const where = absolute === path ? `'${path}'` : `'${path}' (resolved from ${process.cwd()} to ${absolute})`;
  let stats;
  try {
    stats = statSync(absolute);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ToolInputError(
      code === 'ENOENT' || code === 'ENOTDIR'
        ? `Agent.fromYAMLFile(): there is no file ${where}. Check the path; a relative one is resolved from the working directory.`
        : `Agent.fromYAMLFile(): cannot read ${where}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  if (stats.isDirectory()) {
    throw new ToolInputError(
      `Agent.fromYAMLFile(): ${where} is a directory; pass the path of the agent's YAML file in it (e.g. ${JSON.stringify(`${path.replace(/[\\/]+$/, '')}/agent.yaml`)}).`,
    );
  }
  if (stats.size > MAX_AGENT_YAML_FILE_BYTES) {
    throw new ToolInputError(
      `Agent.fromYAMLFile(): ${where} is ${stats.size} bytes; at most ${MAX_AGENT_YAML_FILE_BYTES} are read. An agent's configuration is small: check that this is the right file.`,
    );
  }
  let text: string;
  try {
    text = readFileSync(absolute, 'utf8');
  } catch (error) {
    throw new ToolInputError(`Agent.fromYAMLFile(): cannot read ${where}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function describePath(path: unknown): string {
  if (path === null) return 'null';
  if (typeof path === 'string') return 'an empty string';
  return typeof path === 'object' ? 'an object' : `the ${typeof path} ${String(path)}`;
}
