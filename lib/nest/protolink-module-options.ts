import type { ModuleMetadata } from '@nestjs/common';
import type { AgentOptions } from '../agents/agent-options';
import type { AgentRequestHandlerOptions } from '../server/create-agent-request-handler';

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
