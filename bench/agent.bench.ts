import 'reflect-metadata';
import { tool as langchainTool } from '@langchain/core/tools';
import { RunContext as OpenAIRunContext, tool as openaiTool } from '@openai/agents-core';
import Ajv from 'ajv';
import { z } from 'zod';
import { Agent } from '../lib/agents/agent';
import { NativeTool } from '../lib/tools/native-tool';
import type { BenchRow } from './measure';
import { judge, measureMicros, measureSyncMicros } from './measure';

const ADD_SCHEMA = {
  type: 'object',
  properties: { a: { type: 'integer' }, b: { type: 'integer' } },
  required: ['a', 'b'],
  additionalProperties: false,
};

/**
 * `agent.callTool` per-call overhead on a two-integer tool (validation + policy + context + dispatch, no
 * listeners) against the floor (compiled Ajv validate + direct call) and against the same tool through
 * LangChain's `tool().invoke` and the OpenAI Agents SDK's `FunctionTool.invoke`, all in one run.
 */
export async function runAgentBench(): Promise<BenchRow[]> {
  const args = { a: 2, b: 3 };
  const direct = (input: { a: number; b: number }) => input.a + input.b;

  const validateFloor = new Ajv().compile(ADD_SCHEMA);
  const floor = measureSyncMicros(() => validateFloor(args) && direct(args));
  // The same floor behind one await: what any promise-returning tool call pays at least.
  const asyncFloor = await measureMicros(async () => validateFloor(args) && direct(args), {
    iterations: 100_000,
  });

  const agent = new Agent({
    card: { name: 'bench', description: 'Benchmark agent', url: 'runtime://bench' },
  });
  agent.addTool(
    new NativeTool({
      name: 'add',
      description: 'Add two integers',
      inputSchema: ADD_SCHEMA,
      func: (input) => direct(input as { a: number; b: number }),
    }),
  );
  const agentCall = await measureMicros(() => agent.callTool('add', args), { iterations: 50_000 });

  const zodSchema = z.object({ a: z.number().int(), b: z.number().int() });
  const langchain = langchainTool(async (input: { a: number; b: number }) => direct(input), {
    name: 'add',
    description: 'Add two integers',
    schema: zodSchema,
  });
  const langchainCall = await measureMicros(() => langchain.invoke(args), { iterations: 5_000, rounds: 3 });

  const openai = openaiTool({
    name: 'add',
    description: 'Add two integers',
    parameters: zodSchema,
    execute: async (input) => direct(input),
  });
  const openaiContext = new OpenAIRunContext({});
  const openaiInput = JSON.stringify(args);
  const openaiCall = await measureMicros(() => openai.invoke(openaiContext, openaiInput), {
    iterations: 20_000,
    rounds: 3,
  });

  const group = 'agent';
  return [
    {
      group,
      name: 'floor: Ajv validate + direct call (two integers)',
      value: floor,
      unit: 'µs/call',
      ratio: 1,
    },
    {
      group,
      name: 'floor, async: await (Ajv validate + direct call)',
      value: asyncFloor,
      unit: 'µs/call',
      ratio: asyncFloor / floor,
      note: 'the cost of one await, for scale',
    },
    {
      group,
      name: 'agent.callTool (two integers, no listeners)',
      value: agentCall,
      unit: 'µs/call',
      ratio: agentCall / asyncFloor,
      note: `ratio = ÷ the async floor; ${judge(agentCall / asyncFloor, '≤', 5)}; ${(agentCall / floor).toFixed(1)}× the sync floor`,
    },
    {
      group,
      name: 'peer: OpenAI Agents SDK FunctionTool.invoke (zod)',
      value: openaiCall,
      unit: 'µs/call',
      ratio: openaiCall / agentCall,
      note: `ratio = peer ÷ agent.callTool; ${judge(openaiCall / agentCall, '≥', 4)}`,
    },
    {
      group,
      name: 'peer: LangChain tool().invoke (zod)',
      value: langchainCall,
      unit: 'µs/call',
      ratio: langchainCall / agentCall,
      note: `ratio = peer ÷ agent.callTool; ${judge(langchainCall / agentCall, '≥', 40)}`,
    },
  ];
}
