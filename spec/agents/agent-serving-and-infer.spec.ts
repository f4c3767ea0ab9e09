import 'reflect-metadata';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Agent } from '../../lib/agents/agent';
import { ActionDeniedError } from '../../lib/errors/action-denied-error';
import { BudgetExceededError } from '../../lib/errors/budget-exceeded-error';
import { ToolInputError } from '../../lib/errors/tool-input-error';
import { ToolRuntimeError } from '../../lib/errors/tool-runtime-error';
import { ScriptedLLM } from '../../lib/llm/scripted-llm';
import { CapabilityPolicy } from '../../lib/policy/capability-policy';
import { RunContext } from '../../lib/runtime/run-context';
import { MCPToolAdapter } from '../../lib/mcp/client/mcp-tool-adapter';
import { calculator } from '../../lib/builtins/calculator/calculator';

function buildAgent(transport: 'runtime' | 'http', calls: string[] = []): Agent {
  const agent = new Agent({
    card: { name: 'ops', description: 'Ops tools', url: 'http://127.0.0.1:0' },
    transport,
    policy: new CapabilityPolicy({ 'ops.delete': 'deny' }),
    tools: [calculator()],
  });
  agent.tool({ name: 'wipe', description: 'Delete everything', capabilities: ['ops.delete'] }, () => {
    calls.push('wipe');
    return 'wiped';
  });
  return agent;
}

describe('Agent', () => {
  describe('start / stop', () => {
    it('serves the card and the tools over MCP on loopback, through the agent policy', async () => {
      const calls: string[] = [];
      const agent = buildAgent('http', calls);
      const server = await agent.start();
      try {
        expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
        expect(await agent.start()).toBe(server);
        const card = (await (await fetch(server.cardUrl)).json()) as {
          name: string;
          skills: { id: string }[];
        };
        expect(card.name).toBe('ops');
        expect(card.skills.map((skill) => skill.id)).toEqual(['calculator', 'wipe']);
        const adapter = new MCPToolAdapter({ transport: 'http', url: server.mcpUrl });
        try {
          expect(await adapter.getCallable('calculator')({ expression: '6 * 7' })).toEqual({
            expression: '6 * 7',
            result: 42,
          });
          await expect(adapter.getCallable('wipe')({})).rejects.toThrow(
            /denied: Denied capabilities: ops\.delete/,
          );
          expect(calls).toEqual([]);
        } finally {
          await adapter.close();
        }
      } finally {
        await agent.stop();
      }
      await expect(fetch(server.cardUrl)).rejects.toThrow();
      await agent.stop();
    });

    it('refuses to start an agent whose transport is not http', async () => {
      const agent = buildAgent('runtime');
      await expect(agent.start()).rejects.toBeInstanceOf(ToolInputError);
      await expect(agent.start()).rejects.toThrow(
        "Agent 'ops' uses transport 'runtime': create it with transport: 'http'",
      );
    });

    it('refuses a non-loopback address unless asked, and can start again after a failure', async () => {
      const agent = buildAgent('http');
      await expect(agent.start({ url: 'http://0.0.0.0:0' })).rejects.toBeInstanceOf(ToolInputError);
      const server = await agent.start();
      expect(server.port).toBeGreaterThan(0);
      await agent.stop();
    });
  });

  describe('infer', () => {
    it('runs the tool loop through the controlled path: results and denials go back to the model', async () => {
      const calls: string[] = [];
      const agent = buildAgent('runtime', calls);
      const llm = new ScriptedLLM([
        {
          toolCalls: [
            { name: 'calculator', arguments: { expression: '2 ** 8' } },
            { name: 'wipe', arguments: {} },
          ],
        },
        { text: '2 ** 8 is 256; wiping is not allowed.' },
      ]);
      const result = await agent.infer('What is 2 ** 8? Then wipe.', { llm });
      expect(result.text).toBe('2 ** 8 is 256; wiping is not allowed.');
      expect(result.toolCalls.map((call) => [call.name, call.status])).toEqual([
        ['calculator', 'ok'],
        ['wipe', 'error'],
      ]);
      expect(calls).toEqual([]);
      const toolMessages = llm.calls[1].messages.filter((message) => message.role === 'tool');
      expect(toolMessages[1]).toMatchObject({ name: 'wipe', isError: true });
      expect(JSON.parse(toolMessages[1].content as string)).toEqual({
        error: {
          type: 'denied',
          code: new ActionDeniedError('x').code,
          message:
            "Action 'wipe' denied: Denied capabilities: ops.delete. The call did not run; do not retry it.",
        },
      });
    });

    it('stops at the budget of the context with BudgetExceededError', async () => {
      const agent = buildAgent('runtime');
      const looping = new ScriptedLLM(
        Array.from({ length: 5 }, (_, index) => ({
          toolCalls: [{ name: 'calculator', arguments: { expression: `${index} + 1` } }],
        })),
      );
      const context = new RunContext({ budget: { maxLlmCalls: 2 } });
      await expect(agent.infer('loop', { llm: looping, context })).rejects.toBeInstanceOf(
        BudgetExceededError,
      );
    });

    it('passes provider failures through as ToolRuntimeError', async () => {
      const agent = buildAgent('runtime');
      const failing = new ScriptedLLM([
        new ToolRuntimeError('provider down', { provider: 'scripted', status: 503, retryable: true }),
      ]);
      await expect(agent.infer('hi', { llm: failing })).rejects.toMatchObject({
        name: 'ToolRuntimeError',
        status: 503,
      });
    });
  });

  it('never loads the MCP SDK when protolink is imported', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        '-r',
        'ts-node/register/transpile-only',
        '-e',
        "require('reflect-metadata'); require('./lib/index.ts'); console.log(Object.keys(require.cache).filter((path) => path.includes('@modelcontextprotocol')).length)",
      ],
      { cwd: join(__dirname, '../..') },
    );
    expect(stdout.trim()).toBe('0');
  });
});
