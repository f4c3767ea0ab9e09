import 'reflect-metadata';
import { ToolDefinitionError } from '../../../lib/errors/tool-definition-error';
import { RunContext } from '../../../lib/runtime/run-context';
import { Context } from '../../../lib/tools/decorators/context.decorator';
import { Param } from '../../../lib/tools/decorators/param.decorator';
import { Tool } from '../../../lib/tools/decorators/tool.decorator';
import { scanTools } from '../../../lib/tools/registry/scan-tools';

class Contextual {
  @Tool({ name: 'whoami', description: 'Reports the run' })
  whoami(
    @Context() context: RunContext,
    @Param('greeting') greeting: string,
  ): { runId: string; greeting: string; aborted: boolean } {
    return { runId: context.runId, greeting, aborted: context.signal.aborted };
  }

  @Tool({ name: 'only_context', description: 'Takes only the context' })
  onlyContext(@Context() context: RunContext): boolean {
    return context instanceof RunContext;
  }
}

describe('Context', () => {
  const tools = new Map(scanTools(new Contextual()).map((tool) => [tool.name, tool]));

  it('is never part of the input schema', () => {
    expect(tools.get('whoami')!.inputSchema).toEqual({
      type: 'object',
      properties: { greeting: { type: 'string' } },
      required: ['greeting'],
      additionalProperties: false,
      title: 'whoamiInput',
    });
    expect(tools.get('only_context')!.inputSchema.properties).toEqual({});
  });

  it('rejects an argument named like the context parameter', async () => {
    await expect(tools.get('only_context')!.call({ context: {} })).rejects.toThrow(
      /context: is not an accepted field/,
    );
  });

  it('injects the given RunContext', async () => {
    const context = new RunContext({ runId: 'run-42' });
    await expect(tools.get('whoami')!.call({ greeting: 'hi' }, { context })).resolves.toEqual({
      runId: 'run-42',
      greeting: 'hi',
      aborted: false,
    });
  });

  it('injects a fresh RunContext carrying the call signal when none is given', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(tools.get('only_context')!.call({})).resolves.toBe(true);
    await expect(
      tools.get('whoami')!.call({ greeting: 'hi' }, { signal: controller.signal }),
    ).resolves.toMatchObject({ aborted: true });
  });

  it('throws ToolDefinitionError on a constructor parameter', () => {
    const apply = () => Context()(class Service {}, undefined, 0);
    expect(apply).toThrow(ToolDefinitionError);
    expect(apply).toThrow('@Context() is on a constructor parameter; put it on a @Tool method parameter.');
  });

  it('throws ToolDefinitionError on a parameter of a static method', () => {
    class Statics {
      static run(context: RunContext): string {
        return context.runId;
      }
    }
    const apply = () => Context()(Statics, 'run', 0);
    expect(apply).toThrow(ToolDefinitionError);
    expect(apply).toThrow(
      '@Context() is on a parameter of the static method Statics.run; tools must be instance methods.',
    );
  });

  it('throws ToolDefinitionError at scan time on a method without @Tool', () => {
    class Orphan {
      run(@Context() context: RunContext): string {
        return context.runId;
      }
    }
    expect(() => scanTools(new Orphan())).toThrow(ToolDefinitionError);
    expect(() => scanTools(new Orphan())).toThrow(
      /Orphan\.run has @Param\/@Context parameters but no @Tool decorator\. Add @Tool\(\{ name, description \}\)/,
    );
  });

  it('throws ToolDefinitionError at scan time for a parameter with both @Context and @Param', () => {
    class Both {
      @Tool({ name: 'both', description: 'x' })
      run(@Context() @Param('x') context: RunContext): string {
        return context.runId;
      }
    }
    expect(() => scanTools(new Both())).toThrow(
      'Parameter #1 of Both.run has two parameter decorators; keep one.',
    );
  });
});
