import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { ProtolinkError } from '../../errors/protolink-error';
import { ToolCancelledError } from '../../errors/tool-cancelled-error';
import { ToolDefinitionError } from '../../errors/tool-definition-error';
import { ToolInputError } from '../../errors/tool-input-error';
import { ToolRuntimeError } from '../../errors/tool-runtime-error';
import type {
  MCPCatalogDefinition,
  MCPCatalogKind,
  MCPPromptInfo,
  MCPPromptResult,
  MCPResourceReading,
} from './mcp-catalog-definition';
import type { McpDefinitionOf } from './mcp-definition-kind';
import type { McpCatalogPins } from './mcp-definition-pins';
import type { McpSession } from './mcp-session';
import { describeError } from './mcp-session-helpers';
import type { McpUriTemplateMatcher } from '../../resources/match-mcp-uri-template';
import { MCP_DEFINITION_KINDS, quoteKey, toMcpDefinitionLabel } from './mcp-definition-kind';
import { readMcpCatalogEntry } from './read-mcp-catalog-entry';
import {
  LENIENT_GET_PROMPT_RESULT,
  LENIENT_READ_RESOURCE_RESULT,
  readMcpPromptMessages,
  readMcpResourceContents,
} from './read-mcp-catalog-result';
import type { ResolvedMcpConfig } from './resolve-mcp-config';
import { isSessionExpired } from './to-mcp-call-error';
import { validateMcpPromptArgs } from './validate-mcp-prompt-args';

/** What the catalog needs from its adapter. */
export interface McpCatalogHost {
  readonly config: ResolvedMcpConfig;
  readonly pins: McpCatalogPins;
  /** Runs work on the adapter's session (per-call mode: a new one); a {@link retryOnce} error runs it once more. */
  run<T>(work: (session: McpSession) => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** Wraps the error of a request that never reached a live server, so {@link run} tries a new session once. */
  retryOnce(error: ProtolinkError): Error;
}

/** Options of one read or get. */
export interface MCPRequestOptions {
  /** Aborting sends `notifications/cancelled` and rejects with a ToolCancelledError. */
  signal?: AbortSignal;
}

interface CatalogListing {
  /** Usable entries by key. */
  readonly entries: ReadonlyMap<string, MCPCatalogDefinition>;
  readonly infos: readonly MCPCatalogDefinition[];
  /** Templates only: the matcher of every readable template, refused ones included. */
  readonly matchers: ReadonlyMap<string, McpUriTemplateMatcher>;
  readonly problems: ReadonlyMap<string, ToolDefinitionError>;
}

const LISTS = {
  resource: { method: 'resources/list', field: 'resources', capability: 'resources' },
  resourceTemplate: {
    method: 'resources/templates/list',
    field: 'resourceTemplates',
    capability: 'resources',
  },
  prompt: { method: 'prompts/list', field: 'prompts', capability: 'prompts' },
} as const;

/** Most names a "not found" message lists. */
const NAMES_SHOWN = 20;

/**
 * A server's resources, resource templates and prompts: listed (every page, up to `maxListPages`), each entry
 * checked against the SDK's schema and the adapter's size limits, pinned like tools, cached until the server
 * says the list changed; resources read and prompts got only when listed (or, for resources, matching a
 * listed template), with prompt arguments checked locally first.
 */
export class McpCatalog {
  private readonly listings = new Map<MCPCatalogKind, CatalogListing>();
  private readonly loading = new Map<MCPCatalogKind, Promise<CatalogListing>>();
  private readonly generations = new Map<MCPCatalogKind, number>();

  constructor(private readonly host: McpCatalogHost) {}

  /** The pins of the server's resources, templates and prompts. */
  get pins(): McpCatalogPins {
    return this.host.pins;
  }

  /** The entries of one kind (cached; `refresh` lists again). */
  async list<Kind extends MCPCatalogKind>(
    kind: Kind,
    refresh: boolean,
  ): Promise<readonly McpDefinitionOf[Kind][]> {
    return (await this.load(kind, refresh)).infos as readonly McpDefinitionOf[Kind][];
  }

  /** Entries of the last listings that cannot be used (malformed, oversized, repeated, changed and refused). */
  get problems(): readonly ToolDefinitionError[] {
    return [...this.listings.values()].flatMap((listing) => [...listing.problems.values()]);
  }

  /** Drops the cached listings of a list the server says changed (`resources` drops templates too). */
  invalidate(list: 'resources' | 'prompts' | 'all'): void {
    const kinds: MCPCatalogKind[] =
      list === 'resources'
        ? ['resource', 'resourceTemplate']
        : list === 'prompts'
          ? ['prompt']
          : ['resource', 'resourceTemplate', 'prompt'];
    for (const kind of kinds) {
      this.listings.delete(kind);
      this.generations.set(kind, (this.generations.get(kind) ?? 0) + 1);
    }
  }

  /**
   * Reads a resource the server listed, or one of the URIs of a listed template.
   *
   * @throws ToolInputError for a URI that is neither (or a server without resources); ToolDefinitionError
   * when its definition changed and waits for acceptance; ToolRuntimeError when the read fails or its answer is
   * malformed or too large; ToolCancelledError when aborted.
   */
  async readResource(uri: unknown, options: MCPRequestOptions = {}): Promise<MCPResourceReading> {
    const { serverName } = this.host.config;
    if (typeof uri !== 'string' || uri === '')
      throw new ToolInputError(
        `readResource() needs the URI of a resource of MCP server '${serverName}' (a non-empty string).`,
      );
    await this.assertReadable(uri);
    const what = `read the resource ${quoteKey(uri)}`;
    const result = await this.request(
      what,
      (session, signal) =>
        session.request('resources/read', { uri }, LENIENT_READ_RESOURCE_RESULT, { signal }),
      'resources',
      options.signal,
    );
    return readMcpResourceContents(
      uri,
      result,
      this.resultOptions(`MCP server '${serverName}', asked for the resource ${quoteKey(uri)},`),
    );
  }

  /**
   * Gets a listed prompt's messages, its arguments checked against the ones it declared before anything is sent.
   *
   * @throws ToolInputError for an unknown prompt (or a server without prompts); ToolValidationError for
   * missing, unknown or non-string arguments; ToolDefinitionError when its definition changed and waits for
   * acceptance; ToolRuntimeError when the server fails or answers malformed or too large; ToolCancelledError.
   */
  async getPrompt(name: unknown, args: unknown, options: MCPRequestOptions = {}): Promise<MCPPromptResult> {
    const { serverName } = this.host.config;
    if (typeof name !== 'string' || name === '')
      throw new ToolInputError(
        `getPrompt() needs the name of a prompt of MCP server '${serverName}' (a non-empty string).`,
      );
    const listing = await this.load('prompt', false);
    const prompt = listing.entries.get(name) as MCPPromptInfo | undefined;
    if (!prompt) throw this.notFound('prompt', name, listing);
    const checked = validateMcpPromptArgs(prompt, args, serverName);
    const result = await this.request(
      `get the prompt ${quoteKey(name)}`,
      (session, signal) =>
        session.request('prompts/get', { name, arguments: checked }, LENIENT_GET_PROMPT_RESULT, { signal }),
      'prompts',
      options.signal,
    );
    return readMcpPromptMessages(
      name,
      result,
      this.resultOptions(`MCP server '${serverName}', asked for the prompt ${quoteKey(name)},`),
    );
  }

  private async assertReadable(uri: string): Promise<void> {
    const resources = await this.load('resource', false);
    if (resources.entries.has(uri)) return;
    const refused = resources.problems.get(uri) ?? this.host.pins.refusalOf('resource', uri);
    if (refused) throw refused;
    const templates = await this.load('resourceTemplate', false);
    const matching = [...templates.matchers]
      .filter(([, matcher]) => matcher.matches(uri))
      .map(([key]) => key);
    if (matching.some((key) => templates.entries.has(key))) return;
    const problem = matching.map((key) => templates.problems.get(key)).find((error) => error !== undefined);
    if (problem) throw problem;
    const known = [...templates.entries.keys()];
    throw new ToolInputError(
      `The resource ${quoteKey(uri)} is not listed by MCP server '${this.host.config.serverName}' and matches none ` +
        `of its resource templates${known.length ? ` (${shortList(known)})` : ''}; readResource() reads only what ` +
        'the server lists (see adapter.listResources() and adapter.listResourceTemplates()).',
    );
  }

  private notFound(kind: MCPCatalogKind, key: string, listing: CatalogListing): ProtolinkError {
    const problem = listing.problems.get(key) ?? this.host.pins.refusalOf(kind, key);
    if (problem) return problem;
    const known = [...listing.entries.keys()];
    return new ToolInputError(
      `MCP ${toMcpDefinitionLabel(kind, key)} not found on server '${this.host.config.serverName}'; ` +
        (known.length
          ? `it offers: ${shortList(known)}.`
          : `it lists no ${MCP_DEFINITION_KINDS[kind].noun}s.`),
    );
  }

  private async load(kind: MCPCatalogKind, refresh: boolean): Promise<CatalogListing> {
    const cached = this.listings.get(kind);
    if (!refresh && cached) return cached;
    const pending = this.loading.get(kind);
    if (!refresh && pending) return pending;
    const generation = (this.generations.get(kind) ?? 0) + 1;
    this.generations.set(kind, generation);
    const loading = this.fetch(kind).then((listing) => {
      if (this.generations.get(kind) === generation) this.listings.set(kind, listing);
      return listing;
    });
    this.loading.set(kind, loading);
    try {
      return await loading;
    } finally {
      if (this.loading.get(kind) === loading) this.loading.delete(kind);
    }
  }

  private async fetch(kind: MCPCatalogKind): Promise<CatalogListing> {
    const { config } = this.host;
    const { method, field, capability } = LISTS[kind];
    const page = z.looseObject({ [field]: z.array(z.unknown()), nextCursor: z.string().optional() });
    const noun = `${MCP_DEFINITION_KINDS[kind].noun}s`;
    const wire = await this.request(
      `list the ${noun}`,
      async (session, signal) => {
        const all: unknown[] = [];
        let cursor: string | undefined;
        for (let index = 0; index < config.maxListPages; index += 1) {
          const params = cursor === undefined ? {} : { cursor };
          let result: Record<string, unknown>;
          try {
            result = await session.request(method, params, page, { signal });
          } catch (error) {
            // Servers that declare resources without templates may not know the method: no templates.
            if (
              kind === 'resourceTemplate' &&
              error instanceof McpError &&
              error.code === ErrorCode.MethodNotFound
            )
              return all;
            throw error;
          }
          all.push(...(result[field] as unknown[]));
          cursor = result.nextCursor as string | undefined;
          if (cursor === undefined) return all;
        }
        throw new ToolRuntimeError(
          `MCP server '${config.serverName}' listed more than ${config.maxListPages} pages of ${noun}; raise maxListPages if that is expected.`,
          { provider: config.serverName },
        );
      },
      capability,
    );
    return this.read(kind, wire);
  }

  private read(kind: MCPCatalogKind, wire: readonly unknown[]): CatalogListing {
    const { config, pins } = this.host;
    const limits = { maxChars: config.maxSchemaChars, maxDepth: config.maxSchemaDepth };
    const usable = new Map<string, MCPCatalogDefinition>();
    const matchers = new Map<string, McpUriTemplateMatcher>();
    const problems = new Map<string, ToolDefinitionError>();
    wire.forEach((item, position) => {
      const reading = readMcpCatalogEntry(kind, item, position, config.serverName, limits);
      if ('problem' in reading) {
        if (!problems.has(reading.key) && !usable.has(reading.key))
          problems.set(reading.key, reading.problem);
        return;
      }
      if (usable.has(reading.key) || problems.has(reading.key)) {
        problems.set(
          `${reading.key}#duplicate`,
          new ToolDefinitionError(
            `MCP ${toMcpDefinitionLabel(kind, reading.key)} on server '${config.serverName}' is listed twice; only the first definition is used.`,
          ),
        );
        return;
      }
      usable.set(reading.key, reading.definition);
      if (reading.matcher) matchers.set(reading.key, reading.matcher);
    });
    for (const [key, refusal] of pins.apply(kind, usable)) {
      usable.delete(key);
      problems.set(key, refusal);
    }
    return {
      entries: usable,
      infos: Object.freeze([...usable.values()]),
      matchers,
      problems,
    };
  }

  /**
   * Sends requests without effects on the adapter's session after checking the server declared the
   * capability; one that never reached a live server is tried once more on a new session.
   */
  private request<T>(
    what: string,
    send: (session: McpSession, signal: AbortSignal | undefined) => Promise<T>,
    capability: 'resources' | 'prompts',
    signal?: AbortSignal,
  ): Promise<T> {
    const { serverName, transport, timeoutMs } = this.host.config;
    if (signal?.aborted) return Promise.reject(cancelled(what, serverName, signal));
    return this.host.run(async (session) => {
      if (!session.serverCapabilities[capability]) {
        throw new ToolInputError(
          `MCP server '${serverName}' does not offer ${capability}: it did not declare the '${capability}' ` +
            `capability when the session opened, so the adapter cannot ${what}.`,
        );
      }
      try {
        return await send(session, signal);
      } catch (error) {
        if (error instanceof ProtolinkError) throw error;
        if (signal?.aborted) throw cancelled(what, serverName, signal);
        const timedOut = error instanceof McpError && error.code === ErrorCode.RequestTimeout;
        const failure = new ToolRuntimeError(
          timedOut
            ? `MCP server '${serverName}' did not answer within ${timeoutMs} ms (timeoutMs) when asked to ${what}; the server was sent notifications/cancelled.`
            : // The SDK prefixes the code again to a server's message that already carries it.
              `Could not ${what} of MCP server '${serverName}': ${describeError(error).replace(/^(MCP error -?\d+: )(?=\1)/, '')}`,
          { cause: error, provider: serverName, retryable: timedOut || !(error instanceof McpError) },
        );
        const notSent = error instanceof Error && error.message === 'Not connected';
        const closed = !session.alive;
        if (
          notSent ||
          closed ||
          isSessionExpired({ error, fatal: undefined, sessionClosed: closed, notSent }, transport)
        ) {
          session.markDead();
          throw this.host.retryOnce(failure);
        }
        throw failure;
      }
    }, signal);
  }

  private resultOptions(subject: string) {
    const { config } = this.host;
    return {
      subject,
      serverName: config.serverName,
      maxResultChars: config.maxResultChars,
      maxBinaryBytes: config.maxMessageBytes,
    };
  }
}

function cancelled(what: string, serverName: string, signal: AbortSignal): ToolCancelledError {
  const reason = signal.reason as unknown;
  if (reason instanceof ToolCancelledError) return reason;
  return new ToolCancelledError(`The request to ${what} of MCP server '${serverName}' was cancelled.`, {
    reason: reason instanceof Error ? reason.message : reason === undefined ? undefined : String(reason),
  });
}

function shortList(names: readonly string[]): string {
  const shown = names.slice(0, NAMES_SHOWN).map((name) => quoteKey(name));
  return names.length > NAMES_SHOWN
    ? `${shown.join(', ')} and ${names.length - NAMES_SHOWN} more`
    : shown.join(', ');
}
