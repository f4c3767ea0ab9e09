import { Module } from '@nestjs/common';
import type { DynamicModule, Provider } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Agent } from '../agents/agent';
import { assertKnownOptions } from '../runtime/assert-known-options';
import { ProtolinkExplorer } from './protolink-explorer';
import { ProtolinkHttpServer } from './protolink-http-server';
import {
  PROTOLINK_MODULE_ASYNC_OPTION_NAMES,
  PROTOLINK_MODULE_OPTION_NAMES,
} from './protolink-module-options';
import type { ProtolinkModuleAsyncOptions, ProtolinkModuleOptions } from './protolink-module-options';
import { PROTOLINK_MODULE_OPTIONS } from './protolink-nest-tokens';

const AGENT_PROVIDER: Provider = {
  provide: Agent,
  useFactory: (options: ProtolinkModuleOptions) => {
    // Checked here, where both static and factory-built options arrive, so the message names the module.
    if (typeof options === 'object' && options !== null)
      assertKnownOptions(options, PROTOLINK_MODULE_OPTION_NAMES);
    const { serve: _serve, ...agentOptions } = options;
    return new Agent(agentOptions);
  },
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

  /**
   * Configures the module with a factory that can inject other providers (configuration, secrets…).
   *
   * @throws ToolDefinitionError for an option that is not known (`useClass`…).
   */
  static forRootAsync(options: ProtolinkModuleAsyncOptions): DynamicModule {
    assertKnownOptions(options, PROTOLINK_MODULE_ASYNC_OPTION_NAMES);
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
