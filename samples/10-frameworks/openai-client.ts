// Sample 10 (official client): the agent's tools in a tool loop driven by the `openai` client you already
// configured (keys, proxies, Azure, retries): `runToolLoop(agent, prompt, { llm: fromOpenAI(new OpenAI(), …) })`.
// Offline: the client talks to a small Chat Completions stand-in on 127.0.0.1, which first asks for the
// tool, then answers with its result (and fails once with 503, which the client retries).
// Run: npx ts-node --transpile-only samples/10-frameworks/openai-client.ts
import 'reflect-metadata';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { Agent, fromOpenAI, runToolLoop } from '../../lib/index';

const agent = new Agent({
  card: { name: 'desk', description: 'Arithmetic', url: 'http://127.0.0.1:8000' },
});
agent.tool(
  {
    name: 'add',
    description: 'Adds two integers.',
    inputSchema: {
      type: 'object',
      properties: { a: { type: 'integer' }, b: { type: 'integer' } },
      required: ['a', 'b'],
      additionalProperties: false,
    },
  },
  (args) => (args.a as number) + (args.b as number),
);

/** Answers like Chat Completions: a tool call first, then the text with the tool's result. */
function startChatCompletionsStandIn() {
  let requests = 0;
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      requests += 1;
      if (requests === 1) {
        response.writeHead(503, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: 'busy, retry' } }));
        return;
      }
      const { messages } = JSON.parse(body) as { messages: { role: string; content: string }[] };
      const toolMessage = messages.find((message) => message.role === 'tool');
      const message = toolMessage
        ? { role: 'assistant', content: `3 + 4 = ${toolMessage.content}` }
        : {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_1',
                type: 'function',
                function: { name: 'add', arguments: JSON.stringify({ a: 3, b: '4' }) },
              },
            ],
          };
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          id: `chatcmpl-${requests}`,
          object: 'chat.completion',
          created: 0,
          model: 'gpt-4o-mini',
          choices: [{ index: 0, message, finish_reason: toolMessage ? 'stop' : 'tool_calls' }],
          usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
        }),
      );
    });
  });
  return new Promise<{ url: string; close: () => void; requests: () => number }>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}/v1`, close: () => server.close(), requests: () => requests });
    });
  });
}

async function main(): Promise<void> {
  const standIn = await startChatCompletionsStandIn();
  try {
    const client = new OpenAI({ baseURL: standIn.url, apiKey: 'offline', maxRetries: 2 });
    const result = await runToolLoop(agent, 'What is 3 + 4?', {
      llm: fromOpenAI(client, { model: 'gpt-4o-mini' }),
    });
    console.log(`Tool calls: ${result.toolCalls.map((call) => call.name).join(', ')}`);
    console.log(`HTTP requests (one 503 retried by the client): ${standIn.requests()}`);
    console.log(`Answer: ${result.text}`);
  } finally {
    standIn.close();
  }
}

void main();
