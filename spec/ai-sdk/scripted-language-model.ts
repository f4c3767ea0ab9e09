import { MockLanguageModelV3 } from 'ai/test';

type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;
type Content = GenerateResult['content'][number];

/** A tool call a scripted model makes (input as the object the model would write). */
export interface ScriptedToolCall {
  id: string;
  name: string;
  input: unknown;
}

/** A step of the script: tool calls to make, or the final text. */
export type ScriptedStep = ScriptedToolCall[] | string;

const USAGE: GenerateResult['usage'] = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** The AI SDK's own mock model, answering each `doGenerate` with the next step of a script. */
export function scriptedLanguageModel(steps: readonly ScriptedStep[]): MockLanguageModelV3 {
  let next = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => {
      const step = steps[next++] ?? 'done';
      const content: Content[] =
        typeof step === 'string'
          ? [{ type: 'text', text: step }]
          : step.map((call) => ({
              type: 'tool-call',
              toolCallId: call.id,
              toolName: call.name,
              input: JSON.stringify(call.input),
            }));
      return {
        content,
        finishReason: { unified: typeof step === 'string' ? 'stop' : 'tool-calls', raw: undefined },
        usage: USAGE,
        warnings: [],
      };
    },
  });
}
