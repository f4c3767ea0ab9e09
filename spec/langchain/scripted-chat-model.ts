import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage } from '@langchain/core/messages';
import type { BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import type { StructuredToolInterface } from '@langchain/core/tools';
import { toJsonSchema } from '@langchain/core/utils/json_schema';

/** A tool call the scripted model makes. */
export interface ScriptedLangChainCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

/** What the scripted model was shown. */
export interface ScriptedChatLog {
  /** The JSON Schema of each bound tool, by name, as a real chat model would send it. */
  tools: Record<string, unknown>;
  /** The messages of each model call. */
  calls: BaseMessage[][];
}

/**
 * A minimal LangChain chat model that answers each call with the next step of a script (tool calls or
 * text) and records what it was shown. LangChain's own fakes either cannot emit tool calls or repeat the
 * same response forever.
 */
export class ScriptedChatModel extends BaseChatModel {
  readonly log: ScriptedChatLog = { tools: {}, calls: [] };
  private next = 0;

  constructor(private readonly steps: readonly (ScriptedLangChainCall[] | string)[]) {
    super({});
  }

  _llmType(): string {
    return 'scripted';
  }

  override bindTools(tools: StructuredToolInterface[]): this {
    for (const tool of tools) this.log.tools[tool.name] = toJsonSchema(tool.schema);
    return this;
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.log.calls.push([...messages]);
    const step = this.steps[this.next++] ?? 'done';
    const message =
      typeof step === 'string'
        ? new AIMessage({ content: step })
        : new AIMessage({
            content: '',
            tool_calls: step.map((call) => ({ ...call, type: 'tool_call' as const })),
          });
    return { generations: [{ text: typeof step === 'string' ? step : '', message }] };
  }
}
