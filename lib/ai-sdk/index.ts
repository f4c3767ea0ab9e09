export { toAISDKTools } from './to-ai-sdk-tools';
export type { AISDKApprovalMode, ToAISDKToolsOptions } from './to-ai-sdk-tools';
export type { BridgeContextFactory, BridgeContextSource, BridgeToolCall } from '../llm/open-bridge-context';
