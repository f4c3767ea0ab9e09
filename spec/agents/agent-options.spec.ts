import 'reflect-metadata';
import { Agent } from '../../lib/agents/agent';
import { AGENT_OPTIONS, AGENT_TELEMETRY_OPTIONS } from '../../lib/agents/agent-options';
import type { AgentOptions, AgentTelemetryOptions } from '../../lib/agents/agent-options';
import { ToolDefinitionError } from '../../lib/errors/tool-definition-error';
import { CapabilityPolicy } from '../../lib/policy/capability-policy';
import { NativeTool } from '../../lib/tools/native-tool';
import { TravelTools } from '../fixtures/toolsets/travel-tools';
import { InMemoryTaskStore } from '../../lib/tasks/in-memory-task-store';

const card = { name: 'researcher', description: 'Finds public information', url: 'runtime://researcher' };

function refusal(options: Record<string, unknown>): ToolDefinitionError {
  try {
    new Agent({ card, ...options } as AgentOptions);
  } catch (error) {
    expect(error).toBeInstanceOf(ToolDefinitionError);
    return error as ToolDefinitionError;
  }
  throw new ToolDefinitionError('new Agent() accepted the options');
}

// Required<…>: the compiler refuses these literals if the option types gain or lose an option.
const everyTelemetryOption: Required<AgentTelemetryOptions> = {
  tracing: false,
  recordArguments: false,
  tracerName: 'spec',
  openTelemetry: null,
  onListenerError: () => undefined,
};
const everyOption: Required<AgentOptions> = {
  card,
  transport: 'runtime',
  policy: new CapabilityPolicy(),
  approvalHandler: () => true,
  elicitationHandler: () => ({ action: 'decline' }),
  samplingHandler: () => ({ role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'spec' }),
  skills: 'auto',
  telemetry: everyTelemetryOption,
  tools: [new NativeTool({ name: 'ping', description: 'Ping', func: () => 'pong' })],
  toolsets: [new TravelTools()],
  mcpServers: [],
  taskStore: new InMemoryTaskStore(),
};

describe('AGENT_OPTIONS', () => {
  it('lists exactly the options of AgentOptions and AgentTelemetryOptions', () => {
    expect([...AGENT_OPTIONS.names].sort()).toEqual(Object.keys(everyOption).sort());
    expect([...AGENT_TELEMETRY_OPTIONS.names].sort()).toEqual(Object.keys(everyTelemetryOption).sort());
  });
});

describe('Agent', () => {
  describe('constructor with options that are not known', () => {
    it('takes every option at once, and each set to undefined', () => {
      expect(new Agent(everyOption).tools.has('ping')).toBe(true);
      const undefinedEach = Object.fromEntries(AGENT_OPTIONS.names.map((name) => [name, undefined]));
      expect(new Agent({ ...undefinedEach, card }).name).toBe('researcher');
    });

    it("refuses the original's registry and llm with what to use instead", () => {
      expect(refusal({ registry: {} }).message).toContain(
        "new Agent() option 'registry' is not known: it is the original's tool registry; pass tools: [...] or toolsets: [...], or call agent.addTool() / agent.addToolset().",
      );
      expect(refusal({ llm: {} }).message).toContain(
        "option 'llm' is not known: the model is given per run: agent.infer(prompt, { llm }).",
      );
    });

    it("refuses the original's snake_case names with the camelCase one", () => {
      expect(refusal({ approval_handler: () => true }).message).toContain(
        "option 'approval_handler' is not known: it is the original's snake_case spelling; options are camelCase, use 'approvalHandler' instead.",
      );
    });

    it('refuses a misspelling with the option it was meant to be, and lists the known options', () => {
      const message = refusal({ polcy: new CapabilityPolicy() }).message;
      expect(message).toContain("option 'polcy' is not known; did you mean 'policy'?");
      expect(message).toContain(
        'Known options: card, transport, policy, approvalHandler, elicitationHandler, samplingHandler, skills, telemetry, tools, toolsets, mcpServers, taskStore.',
      );
    });

    it('refuses serve, which belongs to the Nest module, saying how to serve an agent', () => {
      expect(refusal({ serve: true }).message).toContain(
        "option 'serve' is not known: serve is an option of ProtolinkModule.forRoot(); to serve an agent, call agent.start(options)",
      );
    });

    it('refuses a telemetry option that is not known', () => {
      expect(refusal({ telemetry: { tracng: false } }).message).toContain(
        "new Agent() telemetry option 'tracng' is not known; did you mean 'tracing'?",
      );
    });
  });
});
