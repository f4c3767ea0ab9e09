export { toLangChainTools } from './to-lang-chain-tools';
export type { ToLangChainToolsOptions } from './to-lang-chain-tools';
export type { LangChainToolSchema } from './to-lang-chain-schema';
export type { BridgeContextFactory, BridgeContextSource, BridgeToolCall } from '../llm/open-bridge-context';
