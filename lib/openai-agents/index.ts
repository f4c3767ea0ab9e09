/// <reference types="node" preserve="true" />
// Entry point: the optional peer is checked before anything loads it.
import './assert-open-ai-agents-installed';

export { toOpenAIAgentsTools } from './to-open-ai-agents-tools';
export type {
  NonStrictToolNotice,
  OpenAIAgentsFunctionTool,
  ToOpenAIAgentsToolsOptions,
} from './to-open-ai-agents-tools';
export type { BridgeContextFactory, BridgeContextSource, BridgeToolCall } from '../llm/open-bridge-context';
