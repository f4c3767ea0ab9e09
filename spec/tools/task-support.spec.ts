import 'reflect-metadata';
import { ToolDefinitionError } from '../../lib/errors/tool-definition-error';
import { Tool } from '../../lib/tools/decorators/tool.decorator';
import { NativeTool } from '../../lib/tools/native-tool';
import { scanTools } from '../../lib/tools/registry/scan-tools';
import { readTaskSupport } from '../../lib/tools/task-support';

class ReportTools {
  @Tool({ name: 'report', description: 'Builds a long report', task: 'required' })
  report(): string {
    return 'done';
  }

  @Tool({ name: 'quick', description: 'Answers at once' })
  quick(): string {
    return 'ok';
  }
}

describe('readTaskSupport', () => {
  it('defaults to forbidden and accepts the three values', () => {
    expect(readTaskSupport(undefined, 'x')).toBe('forbidden');
    for (const value of ['forbidden', 'optional', 'required'])
      expect(readTaskSupport(value, 'x')).toBe(value);
  });

  it('refuses anything else with a ToolDefinitionError naming the accepted values', () => {
    expect(() => readTaskSupport('sometimes', 'Tool x')).toThrow(ToolDefinitionError);
    expect(() => readTaskSupport(true, 'Tool x')).toThrow(/'forbidden', 'optional' or 'required'/);
  });
});

describe('task option', () => {
  it('is read by @Tool and carried to the scanned NativeTool', () => {
    const tools = scanTools(new ReportTools());
    expect(tools.map((tool) => [tool.name, tool.taskSupport])).toEqual([
      ['report', 'required'],
      ['quick', 'forbidden'],
    ]);
  });

  it('is checked by @Tool at decoration time', () => {
    expect(() => Tool({ name: 'bad', description: 'Bad', task: 'always' as never })).toThrow(
      ToolDefinitionError,
    );
  });

  it('is checked by new NativeTool()', () => {
    expect(new NativeTool({ name: 'n', description: 'N', func: () => 1, task: 'optional' }).taskSupport).toBe(
      'optional',
    );
    expect(
      () => new NativeTool({ name: 'n', description: 'N', func: () => 1, task: 'maybe' as never }),
    ).toThrow(ToolDefinitionError);
  });
});
