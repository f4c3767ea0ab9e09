import { Inject, Injectable } from '@nestjs/common';
import type { OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { Agent } from '../agents/agent';
import { withProvider, discoverNestTools } from './discover-nest-tools';
import { discoverNestCatalog } from './discover-nest-catalog';
import type { DiscoveredNestTool } from './discover-nest-tools';

/**
 * Registers the `@Tool`, `@Resource`, `@ResourceTemplate` and `@Prompt` methods of every provider and
 * controller on the application's Agent at bootstrap.
 */
@Injectable()
export class ProtolinkExplorer implements OnModuleInit {
  private discovered: DiscoveredNestTool[] = [];

  constructor(
    @Inject(DiscoveryService) private readonly discovery: DiscoveryService,
    @Inject(MetadataScanner) private readonly scanner: MetadataScanner,
    @Inject(Agent) private readonly agent: Agent,
  ) {}

  /**
   * @throws ToolDefinitionError naming the provider and method of a tool (or the provider of a resource or
   *   prompt) that cannot be registered.
   */
  onModuleInit(): void {
    const wrappers = [...this.discovery.getProviders(), ...this.discovery.getControllers()];
    this.discovered = discoverNestTools(wrappers, this.scanner);
    for (const { tool } of this.discovered) this.agent.addTool(tool);
    for (const { instance, provider } of discoverNestCatalog(wrappers))
      withProvider(provider, () => this.agent.addCatalog(instance));
  }

  /** The tools found at bootstrap, with their provider and method. */
  get tools(): readonly DiscoveredNestTool[] {
    return this.discovered;
  }
}
