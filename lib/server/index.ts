/// <reference types="node" preserve="true" />
// Entry point `protolink/server`: serving an agent's tools over MCP (streamable HTTP and stdio). It loads
// the MCP SDK, so it is its own subpath, out of the `protolink` entry's import graph.
export {
  createMcpServer,
  DEFAULT_MAX_CONCURRENT_CALLS,
  TOO_MANY_CALLS_ERROR_CODE,
} from '../mcp/rev2025-11-25/create-mcp-server';
export type { McpServerOptions, ServedCallInfo } from '../mcp/rev2025-11-25/create-mcp-server';
export { startAgentServer, MCP_PATH, AGENT_CARD_PATH } from './start-agent-server';
export { createAgentRequestHandler } from './create-agent-request-handler';
export type { AgentRequestHandler } from './create-agent-request-handler';
export type { AgentRequestHandlerOptions } from './agent-request-handler-options';
export { AGENT_SERVER_DEFAULTS } from '../agents/agent-server-options';
export type { AgentServerOptions, AgentServerHandle } from '../agents/agent-server-options';
export {
  InMemoryEventStore,
  DEFAULT_MAX_STORED_EVENTS,
  DEFAULT_MAX_STORED_EVENT_BYTES,
  DEFAULT_RESUME_WINDOW_MS,
} from '../state/memory/in-memory-event-store';
export type { InMemoryEventStoreOptions } from '../state/memory/in-memory-event-store';
export { EventStoreBudget, DEFAULT_MAX_EVENT_STORE_BYTES } from '../state/event-store-budget';
export type { EventStoreBudgetOptions } from '../state/event-store-budget';
export { createInMemoryEventStoreFactory } from '../mcp/rev2025-11-25/create-in-memory-event-store-factory';
export type { InMemoryEventStoreFactoryOptions } from '../mcp/rev2025-11-25/create-in-memory-event-store-factory';
export type { ResumableEventStore } from '../state/resumable-event-store';
export { serveStdio } from './serve-stdio';
export type { ServeStdioOptions, StdioServerHandle } from './serve-stdio';
export { isServableAgent } from '../agents/servable-agent';
export type { ServableAgent, ServableAgentCard } from '../agents/servable-agent';
export { toMcpTool } from '../mcp/wire/to-mcp-tool';
export { toCallToolResult, toCallToolErrorResult, ERROR_META_KEY } from '../mcp/wire/to-call-tool-result';
export type { SessionKey } from '../state/session-key';
export type {
  SessionStore,
  SessionRecord,
  NewSessionRecord,
  SessionRecordChanges,
  SessionAdmission,
} from '../state/session-store';
export type { EventLog, EventLogOptions, EventLogSend, EventLogUsage } from '../state/event-log';
export type {
  SessionBus,
  SessionBusMessage,
  SessionBusSubscribeOptions,
  SessionBusSubscription,
} from '../state/session-bus';
export { InMemorySessionStore } from '../state/memory/in-memory-session-store';
export type { InMemorySessionStoreOptions } from '../state/memory/in-memory-session-store';
export { InMemoryEventLog } from '../state/memory/in-memory-event-log';
export type { InMemoryEventLogOptions } from '../state/memory/in-memory-event-log';
export { InMemorySessionBus } from '../state/memory/in-memory-session-bus';
export type { InMemorySessionBusOptions } from '../state/memory/in-memory-session-bus';
export { DEFAULT_SESSION_BUS_MAX_BYTES } from '../state/session-bus';
export { toResumableEventStore } from '../state/to-resumable-event-store';
export { toTokenSubject } from '../state/to-token-subject';
export type { SharedSessionState } from '../mcp/serve/shared-session-state';
export {
  SessionStoreUnavailableError,
  SESSION_STORE_UNAVAILABLE_HTTP_STATUS,
  SESSION_STORE_UNAVAILABLE_RPC_CODE,
} from '../errors/session-store-unavailable-error';
export { SessionStoreDataError } from '../errors/session-store-data-error';
export { TooManyTasksError } from '../errors/too-many-tasks-error';
export { TaskResultTooLargeError } from '../errors/task-result-too-large-error';
export type { TaskStoreLimits } from '../tasks/task-store-limits';
export { SessionLimitError } from '../errors/session-limit-error';
export type { SessionLimit, SessionLimitErrorOptions } from '../errors/session-limit-error';
export { SessionBusMessageTooLargeError } from '../errors/session-bus-message-too-large-error';
export {
  RESOURCE_NOT_FOUND_ERROR_CODE,
  CATALOG_ACCESS_DENIED_ERROR_CODE,
} from '../mcp/serve/catalog/to-catalog-mcp-error';
export { CATALOG_PAGE_SIZE } from '../mcp/serve/catalog/paginate-catalog';
export { DEFAULT_MAX_SUBSCRIPTIONS_PER_SESSION } from '../mcp/serve/catalog/resource-subscriptions';
