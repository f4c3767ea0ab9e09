import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type {
  CompleteResult,
  GetPromptResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import { RunContext } from '../../../runtime/run-context';
import type { ServedCallInfo } from '../../wire/served-call-info';
import { paginateCatalog } from './paginate-catalog';
import { ResourceSubscriptions, resolveMaxSubscriptions } from './resource-subscriptions';
import type { ServableCatalogAgent } from './servable-catalog';
import { toCatalogMcpError, toWireMcpError } from './to-catalog-mcp-error';
import { toMcpPrompt, toMcpResource, toMcpResourceTemplate } from './to-mcp-catalog-entry';

/** What the catalog handlers take from the server options. */
export interface CatalogHandlerOptions {
  readonly buildContext?: (info: ServedCallInfo) => RunContext;
  readonly onError?: (error: unknown, name: string) => void;
  readonly transport?: 'http' | 'stdio';
  /** Most resources this session may be subscribed to at once (default 1,000); more get -32029. */
  readonly maxSubscriptions?: number;
}

/**
 * Serves an agent's catalog on one SDK server (one session, one stateless request, or stdio): the lists
 * (paginated), and through the agent's guarded paths (policy, approval, cancellation, the request's
 * RunContext) `resources/read`, `prompts/get`, `completion/complete` and `resources/subscribe`, which records
 * a subscription only for a URI the caller may read (the read is authorized, not run) and at most
 * `maxSubscriptions` of them; subscribed URIs get `notifications/resources/updated` when the agent says they
 * changed. Lists that change send `list_changed`. Everything the server listens to is released when it
 * closes.
 *
 * @throws ToolInputError when `maxSubscriptions` is not a whole number >= 1.
 */
export function registerCatalogHandlers(
  server: Server,
  agent: ServableCatalogAgent,
  options: CatalogHandlerOptions,
): void {
  const { catalog } = agent;
  const transport = options.transport ?? 'http';
  const contextFor = (name: string, extra: { signal: AbortSignal; sessionId?: string }): RunContext => {
    const sessionId = extra.sessionId ?? null;
    if (options.buildContext)
      return options.buildContext({ toolName: name, sessionId, signal: extra.signal, transport });
    return new RunContext({ signal: extra.signal, sessionId });
  };
  const guarded = async <T>(what: string, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      throw toCatalogMcpError(error, what, options.onError);
    }
  };
  // The SDK refuses handlers of a capability the server does not declare: each kind only when registered.
  const subscriptions = new ResourceSubscriptions(resolveMaxSubscriptions(options.maxSubscriptions));
  const declared = { resources: catalog.hasResources, prompts: catalog.hasPrompts };
  if (declared.resources) {
    server.setRequestHandler(ListResourcesRequestSchema, (request): ListResourcesResult => {
      const page = paginateCatalog(catalog.listResources(), request.params?.cursor);
      return withCursor({ resources: page.items.map(toMcpResource) }, page.nextCursor);
    });
    server.setRequestHandler(ListResourceTemplatesRequestSchema, (request): ListResourceTemplatesResult => {
      const page = paginateCatalog(catalog.listResourceTemplates(), request.params?.cursor);
      return withCursor({ resourceTemplates: page.items.map(toMcpResourceTemplate) }, page.nextCursor);
    });
    server.setRequestHandler(ReadResourceRequestSchema, (request, extra) =>
      guarded(`Reading resource ${request.params.uri}`, async () => {
        const result = await agent.readResource(request.params.uri, contextFor('resources/read', extra));
        return { contents: result.contents.map((item) => ({ ...item })) } as ReadResourceResult;
      }),
    );
    server.setRequestHandler(SubscribeRequestSchema, (request, extra) =>
      guarded(`Subscribing to resource ${request.params.uri}`, async () => {
        const { uri } = request.params;
        subscriptions.assertRoomFor(uri);
        // Only a caller who may read the resource hears that it changed: its read is authorized, not run.
        await agent.authorizeResourceRead(uri, contextFor('resources/subscribe', extra));
        subscriptions.add(uri);
        return {};
      }),
    );
    server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
      if (typeof request.params.uri !== 'string')
        throw toWireMcpError(ErrorCode.InvalidParams, 'resources/unsubscribe needs a uri.');
      subscriptions.delete(request.params.uri);
      return {};
    });
  }
  if (declared.prompts) {
    server.setRequestHandler(ListPromptsRequestSchema, (request): ListPromptsResult => {
      const page = paginateCatalog(catalog.listPrompts(), request.params?.cursor);
      return withCursor({ prompts: page.items.map(toMcpPrompt) }, page.nextCursor);
    });
    server.setRequestHandler(GetPromptRequestSchema, (request, extra) =>
      guarded(`Getting prompt ${request.params.name}`, async () => {
        const result = await agent.getPrompt(
          request.params.name,
          request.params.arguments ?? {},
          contextFor('prompts/get', extra),
        );
        return structuredClone(result) as GetPromptResult;
      }),
    );
  }
  server.setRequestHandler(CompleteRequestSchema, (request, extra) =>
    guarded('Completion', async (): Promise<CompleteResult> => {
      const { ref, argument, context } = request.params;
      const reference =
        ref.type === 'ref/prompt' ? { type: ref.type, name: ref.name } : { type: ref.type, uri: ref.uri };
      const completion = await agent.complete(reference, argument, {
        arguments: context?.arguments,
        context: contextFor('completion/complete', extra),
      });
      return { completion: { ...completion, values: [...completion.values] } };
    }),
  );
  const stopUpdates = catalog.onResourceUpdated((uri) => {
    if (!subscriptions.has(uri) || !server.transport) return;
    server
      .sendResourceUpdated({ uri })
      .catch((error: unknown) => options.onError?.(error, 'resources/updated'));
  });
  const stopChanges = catalog.onListChanged((kind) => {
    // A kind this session was not told about at initialize has no list to change for it.
    if (!server.transport || !declared[kind]) return;
    const sent = kind === 'prompts' ? server.sendPromptListChanged() : server.sendResourceListChanged();
    sent.catch((error: unknown) => options.onError?.(error, 'list_changed'));
  });
  onServerClose(server, () => {
    stopUpdates();
    stopChanges();
    subscriptions.clear();
  });
}

function withCursor<T extends object>(result: T, nextCursor: string | undefined): T {
  return nextCursor === undefined ? result : { ...result, nextCursor };
}

/**
 * Runs `cleanup` when the server closes, whoever sets `server.onclose` before or after (stdio serving sets
 * its own): the property keeps the handler it is given and calls it after the cleanup.
 */
function onServerClose(server: Server, cleanup: () => void): void {
  let handler = server.onclose;
  Object.defineProperty(server, 'onclose', {
    configurable: true,
    enumerable: true,
    get: () => () => {
      cleanup();
      handler?.();
    },
    set: (value: (() => void) | undefined) => {
      handler = value;
    },
  });
}
