import { Module } from '@nestjs/common';
import type { DynamicModule, Provider } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Agent } from '../agents/agent';
import { ProtolinkExplorer } from './protolink-explorer';
import { ProtolinkHttpServer } from './protolink-http-server';
import type { ProtolinkModuleAsyncOptions, ProtolinkModuleOptions } from './protolink-module-options';
import { PROTOLINK_MODULE_OPTIONS } from './protolink-nest-tokens';

const AGENT_PROVIDER: Provider = {
  provide: Agent,
  useFactory: ({ serve: _serve, ...agentOptions }: ProtolinkModuleOptions) => new Agent(agentOptions),
  inject: [PROTOLINK_MODULE_OPTIONS],
};

/**
 * The NestJS module of Protolink: one injectable `Agent` (the `Agent` class is the DI token) that holds the
 * `@Tool` methods of every singleton provider and controller, discovered at bootstrap. With the option
 * `serve`, the tools are also served over MCP from the application's own HTTP server.
 */
@Module({})
export class ProtolinkModule {
  /** Configures the module with static options. Global: every module can inject the `Agent`. */
  static forRoot(options: ProtolinkModuleOptions): DynamicModule {
    return ProtolinkModule.build([{ provide: PROTOLINK_MODULE_OPTIONS, useValue: options }], []);
  }

  /** Configures the module with a factory that can inject other providers (configuration, secrets…). */
  static forRootAsync(options: ProtolinkModuleAsyncOptions): DynamicModule {
    const provider: Provider = {
      provide: PROTOLINK_MODULE_OPTIONS,
      useFactory: options.useFactory,
      inject: options.inject ?? [],
    };
    return ProtolinkModule.build([provider], options.imports ?? []);
  }

  private static build(
    optionProviders: Provider[],
    imports: NonNullable<DynamicModule['imports']>,
  ): DynamicModule {
    return {
      module: ProtolinkModule,
      global: true,
      imports: [DiscoveryModule, ...imports],
      providers: [...optionProviders, AGENT_PROVIDER, ProtolinkExplorer, ProtolinkHttpServer],
      exports: [Agent, ProtolinkExplorer, ProtolinkHttpServer],
    };
  }
}
