import 'reflect-metadata';
import { Agent } from '../../lib/agents/agent';
import { AgentCard } from '../../lib/agents/agent-card';
import type { AgentEventMap } from '../../lib/agents/agent-events';
import { ToolDefinitionError } from '../../lib/errors/tool-definition-error';
import { ToolInputError } from '../../lib/errors/tool-input-error';
import { CapabilityPolicy } from '../../lib/policy/capability-policy';
import type { OpenTelemetryApiLike, SpanLike } from '../../lib/runtime/tool-call-tracer';
import type { RunContext } from '../../lib/runtime/run-context';
import { NativeTool } from '../../lib/tools/native-tool';
import { TravelTools } from '../fixtures/toolsets/travel-tools';

const card = { name: 'helper', description: 'Helps', url: 'runtime://helper' };

function ping(description = 'Reply pong'): NativeTool {
  return new NativeTool({ name: 'ping', description, func: () => 'pong' });
}

describe('Agent', () => {
  describe('constructor', () => {
    it('uses an allow-by-default CapabilityPolicy, runtime transport and auto skills by default', () => {
      const agent = new Agent({ card });
      expect(agent.policy).toBeInstanceOf(CapabilityPolicy);
      expect(agent.transport).toBe('runtime');
      expect(agent.skillsMode).toBe('auto');
      expect(agent.name).toBe('helper');
      expect(agent.card).toBeInstanceOf(AgentCard);
    });

    it('registers tools and toolsets given at construction', () => {
      const agent = new Agent({ card, tools: [ping()], toolsets: [new TravelTools()] });
      expect([...agent.tools.keys()]).toEqual(expect.arrayContaining(['ping', 'book_hotel', 'add']));
    });

    it('throws ToolInputError for bad options', () => {
      expect(() => new Agent(undefined as never)).toThrow(ToolInputError);
      expect(() => new Agent(undefined as never)).toThrow('new Agent() needs options');
      expect(() => new Agent({ card, transport: 'smtp' as never })).toThrow(
        `Agent transport must be one of 'runtime', 'http'; got "smtp".`,
      );
      expect(() => new Agent({ card, skills: 'some' as never })).toThrow(
        `Agent skills must be one of 'auto', 'fixed'; got "some".`,
      );
      expect(() => new Agent({ card, policy: {} as never })).toThrow(
        'Agent policy must have an evaluate(action, context) method',
      );
      expect(() => new Agent({ card, approvalHandler: 'yes' as never })).toThrow(
        'Agent approvalHandler must be a function',
      );
      expect(() => new Agent({ card: { ...card, name: '' } })).toThrow(
        'AgentCard name must be a non-empty string.',
      );
    });
  });

  describe('addTool', () => {
    it('advertises the tool as a skill in auto mode and replaces tool and skill on re-registration', () => {
      const agent = new Agent({
        card: { ...card, skills: [{ id: 'declared', description: 'Declared on the card' }] },
      });
      const first = agent.addTool(ping('First'));
      expect(agent.getTool('ping')).toBe(first);
      const second = agent.addTool(ping('Second'));
      expect(agent.getTool('ping')).toBe(second);
      expect(agent.card.skills.map((skill) => [skill.id, skill.description])).toEqual([
        ['declared', 'Declared on the card'],
        ['ping', 'Second'],
      ]);
    });

    it('leaves the card as given in fixed mode', () => {
      const agent = new Agent({ card: { ...card, skills: [{ id: 'declared' }] }, skills: 'fixed' });
      agent.addTool(ping());
      expect(agent.card.skills.map((skill) => skill.id)).toEqual(['declared']);
    });

    it('never calls the tool and throws ToolDefinitionError for a non-tool', () => {
      const func = jest.fn();
      new Agent({ card }).addTool(new NativeTool({ name: 'quiet', description: 'q', func }));
      expect(func).not.toHaveBeenCalled();
      expect(() => new Agent({ card }).addTool({ name: 'x' } as never)).toThrow(ToolDefinitionError);
      expect(() => new Agent({ card }).addTool({ name: 'x' } as never)).toThrow(
        "Tool 'x' has no call(args, options) method",
      );
    });
  });

  describe('addToolset', () => {
    it('scans @Tool methods, registers them and advertises their tags', () => {
      const agent = new Agent({ card });
      const tools = agent.addToolset(new TravelTools());
      expect(tools.map((tool) => tool.name).sort()).toEqual([...agent.tools.keys()].sort());
      expect(agent.card.skills.find((skill) => skill.id === 'book_hotel')?.tags).toEqual(['travel']);
    });
  });

  describe('tool', () => {
    it('registers the function now, returns it unchanged, and works as a decorator factory', async () => {
      const agent = new Agent({ card });
      const publish = async (args: Record<string, unknown>) => ({
        record_id: args.record_id,
        status: 'published',
      });
      const returned = agent.tool(
        {
          name: 'publish_record',
          description: 'Publish one record',
          inputSchema: {
            type: 'object',
            properties: { record_id: { type: 'string' } },
            required: ['record_id'],
          },
          capabilities: ['records.write'],
        },
        publish,
      );
      expect(returned).toBe(publish);
      expect(agent.tools.get('publish_record')?.capabilities).toEqual(['records.write']);
      const decorate = agent.tool({ name: 'echo', description: 'Echo', inputSchema: { text: 'str' } });
      const echo = (args: Record<string, unknown>) => args.text;
      expect(decorate(echo)).toBe(echo);
      await expect(agent.callTool('echo', { text: 'hi' })).resolves.toBe('hi');
      await expect(agent.callTool('publish_record', { record_id: 'r1' })).resolves.toEqual({
        record_id: 'r1',
        status: 'published',
      });
    });

    it('throws ToolDefinitionError for an invalid name', () => {
      expect(() => new Agent({ card }).tool({ name: 'bad name', description: 'x' }, () => 1)).toThrow(
        ToolDefinitionError,
      );
    });
  });

  describe('removeTool', () => {
    it('removes the tool and the skill it advertised, keeping card-declared skills', () => {
      const agent = new Agent({ card: { ...card, skills: [{ id: 'declared' }] } });
      agent.addTool(ping());
      expect(agent.removeTool('ping')).toBe(true);
      expect(agent.removeTool('ping')).toBe(false);
      expect(agent.getTool('ping')).toBeUndefined();
      expect(agent.card.skills.map((skill) => skill.id)).toEqual(['declared']);
    });
  });

  describe('tools', () => {
    it('is a live read-only map', () => {
      const agent = new Agent({ card });
      const view = agent.tools;
      agent.addTool(ping());
      expect(view.size).toBe(1);
      expect(view.has('ping')).toBe(true);
      expect([...view.entries()].map(([name]) => name)).toEqual(['ping']);
      expect([...view.values()][0].name).toBe('ping');
      const names: string[] = [];
      view.forEach((_tool, name) => names.push(name));
      expect(names).toEqual(['ping']);
      expect([...view].length).toBe(1);
      expect((view as unknown as { set?: unknown }).set).toBeUndefined();
    });
  });

  describe('on', () => {
    it('emits start, decision and end events for a call, and stops after off', async () => {
      const agent = new Agent({ card, tools: [ping()] });
      const events: string[] = [];
      const record =
        <Name extends keyof AgentEventMap>(name: Name) =>
        (event: AgentEventMap[Name]) => {
          events.push(`${name}:${event.toolName}:${event.callId}`);
        };
      const onEnd = record('tool-call-end');
      agent
        .on('tool-call-start', record('tool-call-start'))
        .on('policy-decision', record('policy-decision'))
        .on('tool-call-end', onEnd);
      await agent.callTool('ping');
      agent.off('tool-call-end', onEnd);
      await agent.callTool('ping');
      expect(events).toEqual([
        'tool-call-start:ping:call_1',
        'policy-decision:ping:call_1',
        'tool-call-end:ping:call_1',
        'tool-call-start:ping:call_2',
        'policy-decision:ping:call_2',
      ]);
    });

    it('never lets a throwing listener break the call', async () => {
      const listenerErrors: unknown[] = [];
      const agent = new Agent({
        card,
        tools: [ping()],
        telemetry: { onListenerError: (error) => listenerErrors.push(error) },
      });
      for (const name of ['tool-call-start', 'tool-call-end', 'policy-decision'] as const) {
        agent.on(name, () => {
          throw new Error(`${name} listener bug`);
        });
      }
      await expect(agent.callTool('ping')).resolves.toBe('pong');
      expect(listenerErrors.map((error) => (error as Error).message)).toEqual([
        'tool-call-start listener bug',
        'policy-decision listener bug',
        'tool-call-end listener bug',
      ]);
    });

    it('emits tool-call-error with the outcome and the error the caller gets', async () => {
      const agent = new Agent({ card, tools: [ping()] });
      const errors: AgentEventMap['tool-call-error'][] = [];
      agent.on('tool-call-error', (event) => {
        errors.push(event);
      });
      const failure = await agent.callTool('missing').catch((error: unknown) => error);
      expect(errors).toHaveLength(1);
      expect(errors[0].outcome).toBe('not_found');
      expect(errors[0].error).toBe(failure);
    });
  });

  describe('telemetry', () => {
    class Span implements SpanLike {
      readonly attributes: Record<string, unknown> = {};
      constructor(readonly name: string) {}
      setAttribute(key: string, value: string | number | boolean): this {
        this.attributes[key] = value;
        return this;
      }
      setStatus(): this {
        return this;
      }
      isRecording(): boolean {
        return true;
      }
      end(): void {}
    }

    it('records one span per call with tool name, decision and outcome, and no argument values by default', async () => {
      const spans: Span[] = [];
      const api: OpenTelemetryApiLike = {
        trace: { getTracer: () => ({ startSpan: (name) => spans[spans.push(new Span(name)) - 1] }) },
      };
      const agent = new Agent({
        card,
        policy: new CapabilityPolicy({ 'secret.*': 'deny' }),
        telemetry: { openTelemetry: api },
      });
      agent.tool(
        { name: 'echo', description: 'Echo', inputSchema: { text: 'str' } },
        (args: Record<string, unknown>) => args.text,
      );
      agent.tool({ name: 'vault', description: 'Vault', capabilities: ['secret.read'] }, () => 'never');
      await agent.callTool('echo', { text: 'private words' });
      await agent.callTool('vault').catch(() => undefined);
      expect(
        spans.map((span) => [
          span.name,
          span.attributes['gen_ai.tool.name'],
          span.attributes['protolink.policy.decision'],
          span.attributes['protolink.tool.outcome'],
        ]),
      ).toEqual([
        ['execute_tool echo', 'echo', 'allow', 'success'],
        ['execute_tool vault', 'vault', 'deny', 'denied'],
      ]);
      expect(JSON.stringify(spans.map((span) => span.attributes))).not.toContain('private words');
    });

    it('puts arguments on spans only when recordArguments is set, and makes no spans with tracing off', async () => {
      const spans: Span[] = [];
      const api: OpenTelemetryApiLike = {
        trace: { getTracer: () => ({ startSpan: (name) => spans[spans.push(new Span(name)) - 1] }) },
      };
      const optedIn = new Agent({ card, telemetry: { openTelemetry: api, recordArguments: true } });
      optedIn.tool(
        { name: 'echo', description: 'Echo', inputSchema: { text: 'str' } },
        (args: Record<string, unknown>) => args.text,
      );
      await optedIn.callTool('echo', { text: 'hello' });
      expect(spans[0].attributes['gen_ai.tool.call.arguments']).toBe('{"text":"hello"}');
      const off = new Agent({ card, telemetry: { openTelemetry: api, tracing: false } });
      off.tool({ name: 'echo', description: 'Echo' }, () => 1);
      await off.callTool('echo');
      expect(spans).toHaveLength(1);
    });
  });

  describe('callToolInContext', () => {
    it('rejects with ToolInputError when the context is not a RunContext', async () => {
      const agent = new Agent({ card, tools: [ping()] });
      await expect(agent.callToolInContext('ping', {} as RunContext)).rejects.toThrow(ToolInputError);
      await expect(agent.callToolInContext('ping', {} as RunContext)).rejects.toThrow(
        "callToolInContext('ping', context) needs a RunContext",
      );
    });
  });
});
