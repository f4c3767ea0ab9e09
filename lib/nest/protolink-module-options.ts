import type { ModuleMetadata } from '@nestjs/common';
import type { AgentOptions } from '../agents/agent-options';

/**
 * Options of `ProtolinkModule.forRoot()`: the options of the application-wide `Agent` (card, policy,
 * approval handler, transport…). Every `@Tool` method of every singleton provider and controller is
 * registered on that agent at bootstrap.
 */
export type ProtolinkModuleOptions = AgentOptions;

/** Options of `ProtolinkModule.forRootAsync()`: a factory, with injected dependencies, for the options. */
export interface ProtolinkModuleAsyncOptions {
  /** Modules whose providers the factory injects (e.g. a ConfigModule). */
  imports?: ModuleMetadata['imports'];
  /** Tokens injected into `useFactory`, in order. */
  inject?: any[];
  /** Builds the module options, sync or async. */
  useFactory: (...dependencies: any[]) => ProtolinkModuleOptions | Promise<ProtolinkModuleOptions>;
}
