/// <reference types="node" preserve="true" />
// Entry point: the optional peer is checked before anything loads it.
import './assert-ai-sdk-installed';

export { toAISDKTools } from './to-ai-sdk-tools';
export type { AISDKApprovalMode, ToAISDKToolsOptions } from './to-ai-sdk-tools';
export type { BridgeContextFactory, BridgeContextSource, BridgeToolCall } from '../llm/open-bridge-context';
