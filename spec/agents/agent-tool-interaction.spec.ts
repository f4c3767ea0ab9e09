import 'reflect-metadata';
import { IsInt, IsString, Min } from 'class-validator';
import { Agent } from '../../lib/agents/agent';
import type { AgentOptions } from '../../lib/agents/agent-options';
import type { ToolLogEvent, ToolProgressEvent } from '../../lib/agents/agent-events';
import type { ElicitationHandler, SamplingHandler } from '../../lib/agents/tool-interaction-handlers';
import { ToolCancelledError } from '../../lib/errors/tool-cancelled-error';
import { ToolDefinitionError } from '../../lib/errors/tool-definition-error';
import { ToolInputError } from '../../lib/errors/tool-input-error';
import { ToolRuntimeError } from '../../lib/errors/tool-runtime-error';
import { ToolValidationError } from '../../lib/errors/tool-validation-error';
import { RunContext } from '../../lib/runtime/run-context';
import type { ElicitationRequest, SamplingResult } from '../../lib/runtime/tool-call-channel';
import { Context, Param, Tool, Toolset } from '../../lib/index';
import { ConformanceTools } from '../../samples/09-mcp-conformance/server';

class Guest {
  @IsString()
  name!: string;

  @IsInt()
  @Min(1)
  nights!: number;
}

@Toolset()
class DeskTools {
  @Tool({ name: 'import_rows', description: 'Imports rows, reporting progress and logging' })
  async importRows(@Param('rows') rows: number, @Context() context: RunContext): Promise<string> {
    await context.log('info', { started: rows }, 'importer');
    for (let done = 1; done <= rows; done += 1) await context.reportProgress(done, rows, `row ${done}`);
    await context.log('debug', 'done');
    return `imported ${rows}`;
  }

  @Tool({ name: 'ask_age', description: 'Asks the user their age' })
  async askAge(@Context() context: RunContext): Promise<unknown> {
    return context.elicit('How old are you?', {
      type: 'object',
      properties: { age: { type: 'integer', minimum: 0 }, city: { type: 'string', default: 'Oslo' } },
      required: ['age'],
    });
  }

  @Tool({ name: 'register_guest', description: 'Asks for a guest (DTO form)' })
  async registerGuest(@Context() context: RunContext): Promise<string> {
    const answer = await context.elicit('Who is staying?', Guest);
    if (answer.action !== 'accept') return `no guest (${answer.action})`;
    const guest = answer.content!;
    return `${guest instanceof Guest ? 'Guest' : 'object'} ${guest.name} for ${guest.nights} nights`;
  }

  @Tool({ name: 'ask_nested', description: 'Asks with a form clients cannot show' })
  async askNested(@Context() context: RunContext): Promise<unknown> {
    return context.elicit('Where?', {
      type: 'object',
      properties: { address: { type: 'object', properties: { city: { type: 'string' } } } },
    });
  }

  @Tool({ name: 'summarize', description: "Asks the caller's model for a summary" })
  async summarize(@Param('text') text: string, @Context() context: RunContext): Promise<SamplingResult> {
    return context.sample({
      messages: [{ role: 'user', content: { type: 'text', text: `Summarize: ${text}` } }],
      maxTokens: 50,
      systemPrompt: 'Be brief.',
    });
  }
}

function answer(text: string): SamplingResult {
  return { role: 'assistant', content: { type: 'text', text }, model: 'test-model', stopReason: 'endTurn' };
}

const CARD = { name: 'desk', description: 'A help desk', url: 'http://127.0.0.1:0' };

function agentWith(options: Omit<AgentOptions, 'card'> = {}): Agent {
  const agent = new Agent({ card: CARD, ...options });
  agent.addToolset(new DeskTools());
  return agent;
}

describe('A tool talking to its caller in-process (Agent)', () => {
  describe('progress and log', () => {
    it('become tool-progress and tool-log events with toolName, callId and runId', async () => {
      const agent = agentWith();
      const progress: ToolProgressEvent[] = [];
      const logs: ToolLogEvent[] = [];
      const starts: { callId: string; runId: string }[] = [];
      agent.on('tool-progress', (event) => {
        progress.push(event);
      });
      agent.on('tool-log', (event) => {
        logs.push(event);
      });
      agent.on('tool-call-start', (event) => {
        starts.push(event);
      });
      await expect(agent.callTool('import_rows', { rows: 2 })).resolves.toBe('imported 2');
      expect(starts).toHaveLength(1);
      const { callId, runId } = starts[0];
      expect(callId).toEqual(expect.any(String));
      const base = { toolName: 'import_rows', callId, runId };
      expect(progress).toEqual([
        { ...base, progress: 1, total: 2, message: 'row 1' },
        { ...base, progress: 2, total: 2, message: 'row 2' },
      ]);
      expect(logs).toEqual([
        { ...base, level: 'info', data: { started: 2 }, logger: 'importer' },
        { ...base, level: 'debug', data: 'done', logger: undefined },
      ]);
    });

    it('carry the runId of the context given to callToolInContext, and a new callId per call', async () => {
      const agent = agentWith();
      const progress: ToolProgressEvent[] = [];
      agent.on('tool-progress', (event) => {
        progress.push(event);
      });
      const context = new RunContext({ runId: 'run-42' });
      await agent.callToolInContext('import_rows', context, { rows: 1 });
      await agent.callToolInContext('import_rows', context, { rows: 1 });
      expect(progress.map((event) => event.runId)).toEqual(['run-42', 'run-42']);
      expect(new Set(progress.map((event) => event.callId)).size).toBe(2);
    });

    it('are silent no-ops for an agent with no listeners and no handlers', async () => {
      await expect(agentWith().callTool('import_rows', { rows: 3 })).resolves.toBe('imported 3');
    });
  });

  describe('elicit', () => {
    it('is answered by the elicitationHandler, with coercion and defaults applied', async () => {
      const requests: ElicitationRequest[] = [];
      const contexts: RunContext[] = [];
      const agent = agentWith({
        elicitationHandler: (request, context) => {
          requests.push(request);
          contexts.push(context);
          return { action: 'accept', content: { age: '30' } };
        },
      });
      const context = new RunContext({ runId: 'r-1' });
      await expect(agent.callToolInContext('ask_age', context, {})).resolves.toEqual({
        action: 'accept',
        content: { age: 30, city: 'Oslo' },
      });
      expect(requests).toEqual([
        {
          message: 'How old are you?',
          requestedSchema: expect.objectContaining({ type: 'object', required: ['age'] }),
          toolName: 'ask_age',
        },
      ]);
      expect(contexts[0]).toBe(context);
    });

    it('gives the tool a DTO instance for a DTO form; decline and cancel reach the tool without content', async () => {
      const answers: Awaited<ReturnType<ElicitationHandler>>[] = [
        { action: 'accept', content: { name: 'Ada', nights: '3' } },
        { action: 'decline' },
        { action: 'cancel', content: { name: 'ignored' } },
      ];
      const agent = agentWith({ elicitationHandler: async () => answers.shift()! });
      await expect(agent.callTool('register_guest')).resolves.toBe('Guest Ada for 3 nights');
      await expect(agent.callTool('register_guest')).resolves.toBe('no guest (decline)');
      await expect(agent.callTool('register_guest')).resolves.toBe('no guest (cancel)');
    });

    it('fails with ToolValidationError when the handler answers content that does not match', async () => {
      const agent = agentWith({ elicitationHandler: () => ({ action: 'accept', content: { age: 'old' } }) });
      const failure = agent.callTool('ask_age');
      await expect(failure).rejects.toBeInstanceOf(ToolValidationError);
      await expect(failure).rejects.toThrow(/ask_age.*age/);
    });

    it('fails with ToolRuntimeError when the handler answers a malformed action', async () => {
      const agent = agentWith({
        elicitationHandler: () => ({ action: 'yes' }) as unknown as { action: 'accept' },
      });
      const failure = agent.callTool('ask_age');
      await expect(failure).rejects.toBeInstanceOf(ToolRuntimeError);
      await expect(failure).rejects.toThrow(
        `The answer to tool 'ask_age' to an elicitation has action "yes"; expected 'accept', 'decline' or 'cancel'.`,
      );
    });

    it('refuses a form clients cannot show with ToolDefinitionError, before asking', async () => {
      const handler = jest.fn();
      const failure = agentWith({ elicitationHandler: handler }).callTool('ask_nested');
      await expect(failure).rejects.toBeInstanceOf(ToolDefinitionError);
      await expect(failure).rejects.toThrow(/Tool 'ask_nested' elicit\(\): field 'address' cannot be shown/);
      expect(handler).not.toHaveBeenCalled();
    });

    it('is canceled while waiting: ToolCancelledError, and the handler sees the canceled context', async () => {
      let seen: RunContext | undefined;
      let asked!: () => void;
      const waiting = new Promise<void>((resolve) => (asked = resolve));
      const agent = agentWith({
        elicitationHandler: (_request, context) => {
          seen = context;
          asked();
          return new Promise(() => undefined);
        },
      });
      const context = new RunContext();
      const call = agent.callToolInContext('ask_age', context, {});
      await waiting;
      context.cancel('user closed the dialog');
      await expect(call).rejects.toBeInstanceOf(ToolCancelledError);
      await expect(call).rejects.toThrow(/user closed the dialog/);
      expect(seen?.canceled).toBe(true);
    });

    it('without an elicitationHandler fails with ToolRuntimeError naming the handler', async () => {
      const agent = agentWith({ samplingHandler: () => answer('x') });
      const failure = agent.callTool('ask_age');
      await expect(failure).rejects.toBeInstanceOf(ToolRuntimeError);
      await expect(failure).rejects.toThrow(
        "Tool 'ask_age' asked the user a question (context.elicit), but the Agent has no elicitationHandler; pass new Agent({ elicitationHandler }) or serve the tool to an MCP client that supports elicitation.",
      );
    });

    it('in an agent with no handlers nor listeners fails with the context message naming the handler', async () => {
      const failure = agentWith().callTool('ask_age');
      await expect(failure).rejects.toBeInstanceOf(ToolRuntimeError);
      await expect(failure).rejects.toThrow(
        /context\.elicit\(\) has nobody to answer: give the Agent an elicitationHandler/,
      );
    });

    it('a handler that throws fails the call with its error', async () => {
      const agent = agentWith({
        elicitationHandler: () => {
          throw new ToolRuntimeError('the dialog crashed');
        },
      });
      await expect(agent.callTool('ask_age')).rejects.toThrow('the dialog crashed');
    });
  });

  describe('sample', () => {
    it('is answered by the samplingHandler, which sees the request, the tool and the context', async () => {
      const handler = jest.fn<ReturnType<SamplingHandler>, Parameters<SamplingHandler>>(async () =>
        answer('short'),
      );
      const agent = agentWith({ samplingHandler: handler });
      const context = new RunContext();
      await expect(agent.callToolInContext('summarize', context, { text: 'long' })).resolves.toEqual(
        answer('short'),
      );
      expect(handler).toHaveBeenCalledTimes(1);
      const [request, seen] = handler.mock.calls[0];
      expect(request).toEqual({
        messages: [{ role: 'user', content: { type: 'text', text: 'Summarize: long' } }],
        maxTokens: 50,
        systemPrompt: 'Be brief.',
        toolName: 'summarize',
      });
      expect(seen).toBe(context);
    });

    it('without a samplingHandler fails with ToolRuntimeError naming the handler', async () => {
      const agent = agentWith({ elicitationHandler: () => ({ action: 'cancel' }) });
      const failure = agent.callTool('summarize', { text: 'x' });
      await expect(failure).rejects.toBeInstanceOf(ToolRuntimeError);
      await expect(failure).rejects.toThrow(
        "Tool 'summarize' asked for a model completion (context.sample), but the Agent has no samplingHandler; pass new Agent({ samplingHandler }) or serve the tool to an MCP client that supports sampling.",
      );
    });

    it('a handler answering without content fails with ToolRuntimeError', async () => {
      const agent = agentWith({ samplingHandler: () => ({ model: 'm' }) as unknown as SamplingResult });
      const failure = agent.callTool('summarize', { text: 'x' });
      await expect(failure).rejects.toBeInstanceOf(ToolRuntimeError);
      await expect(failure).rejects.toThrow(
        "The samplingHandler answered tool 'summarize' without { role, content, model }.",
      );
    });

    it('is canceled while waiting: ToolCancelledError', async () => {
      let asked!: () => void;
      const waiting = new Promise<void>((resolve) => (asked = resolve));
      const agent = agentWith({
        samplingHandler: () => {
          asked();
          return new Promise(() => undefined);
        },
      });
      const context = new RunContext();
      const call = agent.callToolInContext('summarize', context, { text: 'x' });
      await waiting;
      context.cancel('stop');
      await expect(call).rejects.toBeInstanceOf(ToolCancelledError);
    });
  });

  describe('Agent options', () => {
    it.each([
      ['elicitationHandler', 'yes', 'string'],
      ['elicitationHandler', {}, 'object'],
      ['samplingHandler', 42, 'number'],
      ['samplingHandler', null, 'object'],
    ])('refuses %s = %p with ToolInputError', (field, value, type) => {
      const create = () => new Agent({ card: CARD, [field]: value } as never);
      expect(create).toThrow(ToolInputError);
      expect(create).toThrow(`Agent ${field} must be a function (request, context) => result; got ${type}.`);
    });

    it('keeps the handlers it was given', () => {
      const elicitationHandler: ElicitationHandler = () => ({ action: 'cancel' });
      const samplingHandler: SamplingHandler = () => answer('x');
      const agent = new Agent({ card: CARD, elicitationHandler, samplingHandler });
      expect(agent.elicitationHandler).toBe(elicitationHandler);
      expect(agent.samplingHandler).toBe(samplingHandler);
    });
  });

  describe('the conformance toolset of sample 09, in-process', () => {
    const progress: ToolProgressEvent[] = [];
    const logs: ToolLogEvent[] = [];
    const elicitations: ElicitationRequest[] = [];
    const agent = new Agent({
      card: CARD,
      elicitationHandler: (request) => {
        elicitations.push(request);
        return request.toolName === 'test_elicitation'
          ? { action: 'accept', content: { username: 'ada', email: 'ada@example.com' } }
          : { action: 'accept', content: {} };
      },
      samplingHandler: (request) => answer(`echo ${(request.messages[0].content as { text: string }).text}`),
    });
    agent.addToolset(new ConformanceTools());
    agent.on('tool-progress', (event) => {
      progress.push(event);
    });
    agent.on('tool-log', (event) => {
      logs.push(event);
    });

    it('test_tool_with_progress: three progress events', async () => {
      await expect(agent.callTool('test_tool_with_progress')).resolves.toBe('Progress reported');
      expect(progress.map(({ toolName, progress: done, total }) => [toolName, done, total])).toEqual([
        ['test_tool_with_progress', 0, 100],
        ['test_tool_with_progress', 50, 100],
        ['test_tool_with_progress', 100, 100],
      ]);
    });

    it('test_tool_with_logging: three info log events', async () => {
      await expect(agent.callTool('test_tool_with_logging')).resolves.toBe(
        'Tool with logging executed successfully',
      );
      expect(logs.map(({ level, data }) => [level, data])).toEqual([
        ['info', 'Tool execution started'],
        ['info', 'Tool processing data'],
        ['info', 'Tool execution completed'],
      ]);
    });

    it('test_elicitation: the handler answers the username and email', async () => {
      await expect(agent.callTool('test_elicitation', { message: 'Who are you?' })).resolves.toBe(
        'User response: action=accept, content={"username":"ada","email":"ada@example.com"}',
      );
      expect(elicitations[0]).toMatchObject({ message: 'Who are you?', toolName: 'test_elicitation' });
    });

    it('test_elicitation_sep1034_defaults: an empty accepted form gets every default', async () => {
      await expect(agent.callTool('test_elicitation_sep1034_defaults')).resolves.toBe(
        'Elicitation completed: action=accept, content={"name":"John Doe","age":30,"score":95.5,"status":"active","verified":true}',
      );
    });

    it("test_sampling: the samplingHandler answers the tool's prompt", async () => {
      await expect(agent.callTool('test_sampling', { prompt: 'What is 2+2?' })).resolves.toBe(
        'LLM response: echo What is 2+2?',
      );
    });
  });
});
