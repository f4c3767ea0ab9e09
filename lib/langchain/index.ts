/// <reference types="node" preserve="true" />
// Entry point: the optional peer is checked before anything loads it.
import './assert-lang-chain-installed';

export { toLangChainTools } from './to-lang-chain-tools';
export type { ToLangChainToolsOptions } from './to-lang-chain-tools';
export type { LangChainToolSchema } from './to-lang-chain-schema';
export type { BridgeContextFactory, BridgeContextSource, BridgeToolCall } from '../llm/open-bridge-context';
