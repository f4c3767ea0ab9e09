/// <reference types="node" preserve="true" />
// Entry point `protolink/nest`: the NestJS module. @nestjs/common and @nestjs/core are optional peers;
// the guard below turns their absence into an error that names them.
import './assert-nest-installed';

export { ProtolinkModule } from './protolink.module';
export type {
  ProtolinkModuleOptions,
  ProtolinkModuleAsyncOptions,
  ProtolinkServeOptions,
} from './protolink-module-options';
export { ProtolinkHttpServer } from './protolink-http-server';
export { ProtolinkExplorer } from './protolink-explorer';
export { InjectAgent } from './inject-agent.decorator';
export { PROTOLINK_MODULE_OPTIONS } from './protolink-nest-tokens';
export { discoverNestTools } from './discover-nest-tools';
export type { DiscoveredNestTool } from './discover-nest-tools';
export { assertNestInstalled } from './assert-nest-installed';
export { Agent } from '../agents/agent';
