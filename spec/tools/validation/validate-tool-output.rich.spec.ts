import 'reflect-metadata';
import { Agent } from '../../../lib/agents/agent';
import { ToolRuntimeError } from '../../../lib/errors/tool-runtime-error';
import { NativeTool } from '../../../lib/tools/native-tool';
import { ToolResult } from '../../../lib/tools/tool-result';
import { Tool } from '../../../lib/tools/decorators/tool.decorator';
import { validateToolOutput } from '../../../lib/tools/validation/validate-tool-output';

const card = { name: 'charts', description: 'Draws charts', url: 'runtime://charts' };
const outputSchema = {
  type: 'object',
  properties: { width: { type: 'integer' } },
  required: ['width'],
};

describe('validateToolOutput with a ToolResult', () => {
  it('checks the structured content and returns the ToolResult unchanged', () => {
    const result = ToolResult.image('AAAA', 'image/png').withStructuredContent({ width: 2 });
    expect(validateToolOutput(result, outputSchema, 'chart')).toBe(result);
  });

  it('rejects structured content that does not match the output schema', () => {
    const result = ToolResult.text('x').withStructuredContent({ width: 'wide' });
    expect(() => validateToolOutput(result, outputSchema, 'chart')).toThrow(
      new ToolRuntimeError(
        'Tool \'chart\' returned a result that does not match its output schema (result.width: must be an integer, got the string "wide"). Fix the tool or its outputSchema.',
      ),
    );
  });

  it('skips the check when the ToolResult has no structured content', () => {
    const result = ToolResult.image('AAAA', 'image/png');
    expect(validateToolOutput(result, outputSchema, 'chart')).toBe(result);
  });
});

class Charts {
  @Tool({ name: 'chart', description: 'Draws a chart', outputSchema, validateOutput: true })
  async chart(): Promise<ToolResult> {
    return ToolResult.of('The chart:', ToolResult.image('AAAA', 'image/png')).withStructuredContent({
      width: 2,
    });
  }

  @Tool({ name: 'broken_chart', description: 'Draws a chart badly', outputSchema, validateOutput: true })
  async brokenChart(): Promise<ToolResult> {
    return ToolResult.text('oops').withStructuredContent({ height: 1 });
  }
}

describe('agent.callTool with a rich result', () => {
  it('returns the ToolResult unchanged from a decorated tool', async () => {
    const agent = new Agent({ card, toolsets: [new Charts()] });
    const result = await agent.callTool('chart', {});
    expect(ToolResult.isToolResult(result)).toBe(true);
    expect((result as ToolResult).toJSON()).toEqual({
      content: [
        { type: 'text', text: 'The chart:' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      ],
      structuredContent: { width: 2 },
    });
  });

  it('returns the same instance from a NativeTool without an output check', async () => {
    const returned = ToolResult.audio('AA==', 'audio/wav');
    const agent = new Agent({
      card,
      tools: [
        new NativeTool({
          name: 'beep',
          description: 'Beeps',
          outputSchema,
          validateOutput: true,
          func: () => returned,
        }),
      ],
    });
    expect(await agent.callTool('beep', {})).toBe(returned);
  });

  it('fails a call whose structured content breaks the output schema', async () => {
    const agent = new Agent({ card, toolsets: [new Charts()] });
    await expect(agent.callTool('broken_chart', {})).rejects.toThrow(
      "Tool 'broken_chart' returned a result that does not match its output schema",
    );
  });
});
