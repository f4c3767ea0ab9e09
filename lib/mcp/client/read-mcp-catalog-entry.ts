import { PromptSchema, ResourceSchema, ResourceTemplateSchema } from '@modelcontextprotocol/sdk/types.js';
import { ToolDefinitionError } from '../../errors/tool-definition-error';
import { isPlainRecord } from '../../tools/validation/copy-json-value';
import type { RemoteSchemaLimits } from './assert-remote-schema';
import type {
  MCPCatalogDefinition,
  MCPCatalogKind,
  MCPPromptArgument,
  MCPPromptInfo,
  MCPResourceInfo,
  MCPResourceTemplateInfo,
} from './mcp-catalog-definition';
import { compileMcpUriTemplate } from '../../resources/match-mcp-uri-template';
import type { McpUriTemplateMatcher } from '../../resources/match-mcp-uri-template';
import { isNestedDeeper } from './is-nested-deeper';
import {
  describeUnkeyedEntry,
  MCP_DEFINITION_KINDS,
  quoteKey,
  toMcpDefinitionLabel,
} from './mcp-definition-kind';

/** One entry of a resources, templates or prompts listing, read: its definition, or why it cannot be used. */
export type McpCatalogReading =
  | {
      /** The URI (resources), URI template (templates) or name (prompts) that identifies it. */
      readonly key: string;
      readonly definition: MCPCatalogDefinition;
      /** Templates only: which URIs belong to it. */
      readonly matcher?: McpUriTemplateMatcher;
    }
  | { readonly key: string; readonly problem: ToolDefinitionError };

// Not folded with readMcpToolDefinition: a tool's entry is read leniently field by field and its JSON
// Schemas are bounded one by one, while these entries are bounded whole and must match the SDK's schema of
// their kind; the kinds' words (noun, key field, quoting) come from mcp-definition-kind.ts for both.
const SCHEMAS = { resource: ResourceSchema, resourceTemplate: ResourceTemplateSchema, prompt: PromptSchema };

/**
 * Reads one raw entry of a `resources/list`, `resources/templates/list` or `prompts/list` answer (as the
 * server sent it) into a frozen definition with only the fields Protolink models. The entry must be at most
 * `limits.maxDepth` deep and `limits.maxChars` JSON characters (the bounds on a tool's schema), match the
 * SDK's schema of its kind, and have a non-empty key; a template must compile (see
 * {@link compileMcpUriTemplate}); a prompt's arguments need distinct names. Entries that fail are keyed by
 * their key, or `#<position>` when they have none.
 */
export function readMcpCatalogEntry(
  kind: MCPCatalogKind,
  wire: unknown,
  position: number,
  serverName: string,
  limits: RemoteSchemaLimits,
): McpCatalogReading {
  const { noun, keyField } = MCP_DEFINITION_KINDS[kind];
  const rawKey = isPlainRecord(wire) ? wire[keyField] : undefined;
  const hasKey = typeof rawKey === 'string' && rawKey !== '';
  const key = hasKey ? rawKey : `#${position}`;
  const where = hasKey
    ? `MCP ${toMcpDefinitionLabel(kind, key)} on server '${serverName}'`
    : describeUnkeyedEntry(kind, position, serverName);
  const fail = (what: string, cause?: unknown) => ({
    key,
    problem: new ToolDefinitionError(`${where} ${what}; it is set aside.`, cause ? { cause } : {}),
  });
  if (!isPlainRecord(wire)) return fail('is not a JSON object');
  if (isNestedDeeper(wire, limits.maxDepth)) return fail(`is nested deeper than ${limits.maxDepth} levels`);
  const size = JSON.stringify(wire).length;
  if (size > limits.maxChars)
    return fail(`is ${size} characters of JSON (at most ${limits.maxChars}, maxSchemaChars)`);
  const parsed = SCHEMAS[kind].safeParse(wire);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    return fail(`does not match the MCP schema of a ${noun} (${path}${issue?.message ?? 'invalid'})`);
  }
  if (!hasKey) return fail(`has an empty ${keyField}`);
  if (kind === 'prompt') {
    const prompt = toPrompt(parsed.data as PromptWire);
    const names = prompt.arguments.map((argument) => argument.name);
    const repeated = names.find((name, index) => names.indexOf(name) !== index);
    if (repeated !== undefined) return fail(`declares the argument ${quoteKey(repeated)} twice`);
    if (names.includes('')) return fail('declares an argument with an empty name');
    return { key, definition: prompt };
  }
  if (kind === 'resourceTemplate') {
    const template = toResource(parsed.data as ResourceWire, 'uriTemplate') as MCPResourceTemplateInfo;
    try {
      return { key, definition: template, matcher: compileMcpUriTemplate(template.uriTemplate) };
    } catch (error) {
      return fail(`has a URI template that cannot be used: ${(error as Error).message}`, error);
    }
  }
  return { key, definition: toResource(parsed.data as ResourceWire, 'uri') as MCPResourceInfo };
}

interface ResourceWire {
  uri?: string;
  uriTemplate?: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: Record<string, unknown>;
}

interface PromptWire {
  name: string;
  title?: string;
  description?: string;
  arguments?: Array<{ name: string; description?: string; required?: boolean }>;
}

function toResource(wire: ResourceWire, keyField: 'uri' | 'uriTemplate'): MCPCatalogDefinition {
  const definition: Record<string, unknown> = { [keyField]: wire[keyField], name: wire.name };
  if (wire.title !== undefined) definition.title = wire.title;
  definition.description = wire.description ?? '';
  if (wire.mimeType !== undefined) definition.mimeType = wire.mimeType;
  if (keyField === 'uri' && wire.size !== undefined) definition.size = wire.size;
  definition.annotations = Object.freeze({ ...(wire.annotations ?? {}) });
  return Object.freeze(definition) as unknown as MCPCatalogDefinition;
}

function toPrompt(wire: PromptWire): MCPPromptInfo {
  const prompt: Record<string, unknown> = { name: wire.name };
  if (wire.title !== undefined) prompt.title = wire.title;
  prompt.description = wire.description ?? '';
  prompt.arguments = Object.freeze(
    (wire.arguments ?? []).map((argument): MCPPromptArgument => {
      const read: Record<string, unknown> = { name: argument.name };
      read.description = argument.description ?? '';
      read.required = argument.required === true;
      return Object.freeze(read) as unknown as MCPPromptArgument;
    }),
  );
  return Object.freeze(prompt) as unknown as MCPPromptInfo;
}
