import type { Prompt, Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import type { PromptEntry, ResourceEntry, ResourceTemplateEntry } from '../../../resources/catalog-entry';

/** The `resources/list` item of a resource. */
export function toMcpResource(entry: ResourceEntry): Resource {
  return withOptional({ uri: entry.uri, name: entry.name }, entry);
}

/** The `resources/templates/list` item of a template. */
export function toMcpResourceTemplate(entry: ResourceTemplateEntry): ResourceTemplate {
  return withOptional({ uriTemplate: entry.uriTemplate, name: entry.name }, entry);
}

/** The `prompts/list` item of a prompt: its arguments from its `@Param`s. */
export function toMcpPrompt(entry: PromptEntry): Prompt {
  const prompt = withOptional({ name: entry.name }, entry) as Prompt;
  prompt.arguments = entry.arguments.map((argument) =>
    argument.description === undefined
      ? { name: argument.name, required: argument.required }
      : { name: argument.name, description: argument.description, required: argument.required },
  );
  return prompt;
}

function withOptional<T extends object>(
  base: T,
  entry: { title?: string; description?: string; mimeType?: string },
): T {
  const result: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const field of ['title', 'description', 'mimeType'] as const)
    if (entry[field] !== undefined) result[field] = entry[field];
  return result as T;
}
