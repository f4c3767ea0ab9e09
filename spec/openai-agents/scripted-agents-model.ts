import { Usage } from '@openai/agents';
import type { AgentOutputItem, Model, ModelRequest, ModelResponse, StreamEvent } from '@openai/agents';

/** A tool call the scripted model makes (arguments as the object the model would write). */
export interface ScriptedFunctionCall {
  callId: string;
  name: string;
  arguments: unknown;
}

/**
 * An OpenAI Agents SDK `Model` that answers each request with the next step of a script (function calls or
 * final text) and records the requests, so runs are offline and deterministic.
 */
export class ScriptedAgentsModel implements Model {
  readonly requests: ModelRequest[] = [];
  private next = 0;

  constructor(private readonly steps: readonly (ScriptedFunctionCall[] | string)[]) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const step = this.steps[this.next++] ?? 'done';
    const output: AgentOutputItem[] =
      typeof step === 'string'
        ? [
            {
              type: 'message',
              role: 'assistant',
              status: 'completed',
              content: [{ type: 'output_text', text: step }],
            },
          ]
        : step.map((call) => ({
            type: 'function_call',
            callId: call.callId,
            name: call.name,
            arguments: JSON.stringify(call.arguments),
            status: 'completed',
          }));
    return { usage: new Usage(), output, responseId: `response_${this.next}` };
  }

  async *getStreamedResponse(): AsyncIterable<StreamEvent> {
    throw new Error('ScriptedAgentsModel does not stream; use run() without stream: true.');
  }
}

/** The outputs of the function calls the model was shown in its n-th request, by call id. */
export function functionOutputsSeen(model: ScriptedAgentsModel, request: number): Record<string, unknown> {
  const seen: Record<string, unknown> = {};
  const input = model.requests[request].input;
  if (typeof input === 'string') return seen;
  for (const item of input) {
    if (item.type === 'function_call_result') seen[item.callId] = item.output;
  }
  return seen;
}
