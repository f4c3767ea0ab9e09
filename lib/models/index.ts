/// <reference types="node" preserve="true" />
// Entry point `protolink/models`: what talks to language models — the LLM interface and its provider
// implementations, the adapters over official provider clients (fromOpenAI, fromAnthropic, fromGemini), the
// tool declaration converters and the tool-calling loop. The original's `protolink.models` is also where
// its docs import `AgentCard` from, so the card and skill models are here too. `protolink` exports the same
// names; this entry loads no MCP SDK and no HTTP client until a model is called.
export { AgentCard } from '../agents/agent-card';
export type { AgentCardOptions, AgentCardJson, AgentCapabilities } from '../agents/agent-card';
export { AgentSkill } from '../agents/agent-skill';
export type { AgentSkillOptions, AgentSkillJson } from '../agents/agent-skill';
export { toOpenAITools } from '../llm/to-openai-tools';
export type { ToOpenAIToolsOptions, OpenAIChatTool, OpenAIResponsesTool } from '../llm/to-openai-tools';
export { toAnthropicTools } from '../llm/to-anthropic-tools';
export type { AnthropicTool, AnthropicInputSchema } from '../llm/to-anthropic-tools';
export { toGeminiTools } from '../llm/to-gemini-tools';
export type {
  GeminiTool,
  GeminiFunctionDeclaration,
  GeminiJsonSchemaTool,
  GeminiJsonSchemaFunctionDeclaration,
  ToGeminiToolsOptions,
} from '../llm/to-gemini-tools';
export type { ToolSource } from '../llm/collect-tools';
export type { ObjectJsonSchema } from '../llm/schema/lower-json-schema';
export { parseToolArguments } from '../llm/parse-tool-arguments';
export { runToolLoop } from '../llm/run-tool-loop';
export type {
  ToolLoopCaller,
  RunToolLoopOptions,
  ToolLoopResult,
  ToolCallTrace,
  ToolCallProblem,
  ToolLoopEvent,
  ToolLoopUsage,
} from '../llm/tool-loop-types';
export type {
  LLM,
  LlmMessage,
  LlmSystemMessage,
  LlmUserMessage,
  LlmAssistantMessage,
  LlmToolMessage,
  LlmToolCall,
  LlmRequest,
  LlmResponse,
  LlmUsage,
} from '../llm/llm';
export { ScriptedLLM } from '../llm/scripted-llm';
export type { ScriptedResponse, ScriptedStep, ScriptedToolCall, ScriptedCall } from '../llm/scripted-llm';
export { OpenAIChatLLM } from '../llm/providers/openai-chat-llm';
export type { OpenAIChatLLMOptions } from '../llm/providers/openai-chat-llm';
export { OpenAIResponsesLLM } from '../llm/providers/openai-responses-llm';
export type { OpenAIResponsesLLMOptions } from '../llm/providers/openai-responses-llm';
export { AnthropicLLM } from '../llm/providers/anthropic-llm';
export type { AnthropicLLMOptions } from '../llm/providers/anthropic-llm';
export { GeminiLLM } from '../llm/providers/gemini-llm';
export type { GeminiLLMOptions } from '../llm/providers/gemini-llm';
export { OpenAICompatibleLLM } from '../llm/providers/openai-compatible-llm';
export type { OpenAICompatibleLLMOptions } from '../llm/providers/openai-compatible-llm';
export { fromOpenAI } from '../llm/clients/from-openai';
export type { FromOpenAIOptions } from '../llm/clients/from-openai';
export type { OpenAIClient, ClientRequestOptions } from '../llm/clients/openai-client';
export { fromAnthropic } from '../llm/clients/from-anthropic';
export type { FromAnthropicOptions } from '../llm/clients/from-anthropic';
export type { AnthropicClient } from '../llm/clients/anthropic-client';
export { fromGemini } from '../llm/clients/from-gemini';
export type { FromGeminiOptions } from '../llm/clients/from-gemini';
export type { GeminiClient, GeminiGenerateContentParams } from '../llm/clients/gemini-client';
export type { OpenAIChatCompletionBody, OpenAIChatMessageParam } from '../llm/providers/openai-chat-format';
export type { OpenAIResponsesBody, OpenAIResponsesInputItem } from '../llm/providers/openai-responses-format';
export type {
  AnthropicMessagesBody,
  AnthropicMessageParam,
  AnthropicContentBlockParam,
} from '../llm/providers/anthropic-messages-format';
export type { GeminiContent, GeminiPart } from '../llm/providers/gemini-content-format';
