import 'reflect-metadata';
import { Agent } from '../../lib/agents/agent';
import { AGENT_ADD_TOOL_OPTIONS, AGENT_TOOL_OPTIONS } from '../../lib/agents/agent-tool-options';
import type { AgentAddToolOptions, AgentToolOptions } from '../../lib/agents/agent-tool-options';
import { ToolDefinitionError } from '../../lib/errors/tool-definition-error';
import { RunAction } from '../../lib/runtime/run-action';
import { NativeTool } from '../../lib/tools/native-tool';
import { TravelTools } from '../fixtures/toolsets/travel-tools';

const card = { name: 'researcher', description: 'Finds public information', url: 'runtime://researcher' };

// Required<…>: the compiler refuses this literal if AgentToolOptions gains or loses an option.
const everyOption: Required<AgentToolOptions> = {
  name: 'add',
  description: 'Add two integers',
  inputSchema: { a: 'int', b: 'int' },
  outputSchema: { type: 'integer' },
  tags: ['math'],
  examples: [{ a: 1, b: 2 }],
  capabilities: ['math.add'],
  actionBuilder: () => new RunAction({ kind: 'tool.call', name: 'add' }),
};

describe('AGENT_TOOL_OPTIONS', () => {
  it('lists exactly the options of AgentToolOptions and AgentAddToolOptions', () => {
    expect([...AGENT_TOOL_OPTIONS.names].sort()).toEqual(Object.keys(everyOption).sort());
    const everyAddOption: Required<AgentAddToolOptions> = { replace: true };
    expect([...AGENT_ADD_TOOL_OPTIONS.names]).toEqual(Object.keys(everyAddOption));
  });
});

describe('Agent', () => {
  describe('tool with options that are not known', () => {
    it('takes every option at once', () => {
      const agent = new Agent({ card });
      agent.tool(everyOption, (args) => (args.a as number) + (args.b as number));
      expect(agent.tools.get('add')?.capabilities).toEqual(['math.add']);
    });

    it.each([
      [
        { func: () => 1 },
        "agent.tool() option 'func' is not known: the function is agent.tool()'s second argument: agent.tool({ name, description }, (args) => …).",
      ],
      [
        { args: { a: 'int' } },
        "agent.tool() option 'args' is not known: it is the original's legacy field map",
      ],
      [{ action_builder: null }, "use 'actionBuilder' instead"],
      [{ exampels: [] }, "option 'exampels' is not known; did you mean 'examples'?"],
      [{ validateOutput: true }, "option 'validateOutput' is not known; remove it"],
    ])('refuses %j, registering nothing', (extra, message) => {
      const agent = new Agent({ card });
      const register = () =>
        agent.tool({ name: 'add', description: 'Add', ...extra } as AgentToolOptions, () => 1);
      expect(register).toThrow(ToolDefinitionError);
      expect(register).toThrow(message);
      expect(agent.tools.size).toBe(0);
    });

    it('refuses them before the function is given, in the decorator form', () => {
      const agent = new Agent({ card });
      expect(() => agent.tool({ name: 'add', description: 'Add', colour: 1 } as AgentToolOptions)).toThrow(
        "agent.tool() option 'colour' is not known",
      );
    });
  });

  describe('addTool and addToolset with options that are not known', () => {
    const ping = () => new NativeTool({ name: 'ping', description: 'Ping', func: () => 'pong' });

    it('refuse a misspelled replace, registering nothing', () => {
      const agent = new Agent({ card });
      expect(() => agent.addTool(ping(), { replce: true } as AgentAddToolOptions)).toThrow(
        "agent.addTool() option 'replce' is not known; did you mean 'replace'?",
      );
      expect(() => agent.addToolset(new TravelTools(), { overwrite: true } as AgentAddToolOptions)).toThrow(
        "agent.addToolset() option 'overwrite' is not known",
      );
      expect(agent.tools.size).toBe(0);
    });

    it('take replace', () => {
      const agent = new Agent({ card });
      agent.addTool(ping(), { replace: true });
      expect(agent.tools.has('ping')).toBe(true);
    });
  });
});
