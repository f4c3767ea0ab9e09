import type { ModuleMetadata } from '@nestjs/common';
import { AGENT_OPTIONS } from '../agents/agent-options';
import type { AgentOptions } from '../agents/agent-options';
import { defineKnownOptions } from '../runtime/assert-known-options';
import { AGENT_REQUEST_HANDLER_OPTIONS } from '../server/agent-request-handler-options';
import type { AgentRequestHandlerOptions } from '../server/agent-request-handler-options';
import { SHARED_SERVE_OPTION_FLAGS } from '../agents/serve-option-names';

/**
 * How the tools are served from the Nest application's own HTTP server (module option `serve`): the MCP
 * endpoint path (default `/mcp`), the card path (default `/.well-known/agent.json`), the bearer token, the
 * session mode, Host/Origin allow-lists and limits, as for `startAgentServer`.
 */
export type ProtolinkServeOptions = Omit<AgentRequestHandlerOptions, 'unknownPaths' | 'port'>;

/**
 * Options of `ProtolinkModule.forRoot()`: the options of the application-wide `Agent` (card, policy,
 * approval handler, transport…), plus `serve` to also serve the tools over MCP from the application's own
 * HTTP server (Express or Fastify platform). Every `@Tool` method of every singleton provider and controller is
 * registered on that agent at bootstrap.
 */
export type ProtolinkModuleOptions = AgentOptions & {
  /**
   * Serve the agent's tools (MCP streamable HTTP, at `/mcp`) and card (`/.well-known/agent.json`) from the
   * Nest HTTP application itself: `true` for the defaults, or the serving options. Needs an HTTP
   * application on the Express or Fastify platform (`NestFactory.create`), not an application context.
   */
  serve?: true | ProtolinkServeOptions;
};

/** Options of `ProtolinkModule.forRootAsync()`: a factory, with injected dependencies, for the options. */
export interface ProtolinkModuleAsyncOptions {
  /** Modules whose providers the factory injects (e.g. a ConfigModule). */
  imports?: ModuleMetadata['imports'];
  /** Tokens injected into `useFactory`, in order. */
  inject?: any[];
  /** Builds the module options, sync or async. */
  useFactory: (...dependencies: any[]) => ProtolinkModuleOptions | Promise<ProtolinkModuleOptions>;
}

/** The options of `ProtolinkModule.forRoot()`: the Agent's, plus `serve`. */
export const PROTOLINK_MODULE_OPTION_NAMES = defineKnownOptions<ProtolinkModuleOptions>(
  'ProtolinkModule.forRoot()',
  {
    card: true,
    transport: true,
    policy: true,
    approvalHandler: true,
    elicitationHandler: true,
    samplingHandler: true,
    skills: true,
    telemetry: true,
    tools: true,
    toolsets: true,
    mcpServers: true,
    taskStore: true,
    serve: true,
  },
  Object.fromEntries(Object.entries(AGENT_OPTIONS.advice).filter(([name]) => name !== 'serve')),
);

/** The options of the module option `serve`, and advice for the names people pass instead. */
export const PROTOLINK_SERVE_OPTION_NAMES = defineKnownOptions<ProtolinkServeOptions>(
  'ProtolinkModule serve',
  { ...SHARED_SERVE_OPTION_FLAGS, path: true, cardPath: true, listenHostname: true },
  {
    ...AGENT_REQUEST_HANDLER_OPTIONS.advice,
    port: 'the Nest application listens on its own port (app.listen(port)); remove it',
    unknownPaths: "other paths always go on to the application's own routes; remove it",
  },
);

/** The options of `ProtolinkModule.forRootAsync()`. */
export const PROTOLINK_MODULE_ASYNC_OPTION_NAMES = defineKnownOptions<ProtolinkModuleAsyncOptions>(
  'ProtolinkModule.forRootAsync()',
  { imports: true, inject: true, useFactory: true },
  {
    useClass: 'build the options with useFactory (inject what it needs)',
    useExisting: 'build the options with useFactory (inject what it needs)',
    useValue: 'pass static options to ProtolinkModule.forRoot(options) instead',
  },
);
