import 'reflect-metadata';
import { createHash } from 'node:crypto';
import { MCPToolAdapter } from '../../../lib/mcp/client';
import { ToolDefinitionError } from '../../../lib/errors/tool-definition-error';
import { ToolValidationError } from '../../../lib/errors/tool-validation-error';
import { hostileServerStdio } from '../../fixtures/mcp/hostile-server-options';

jest.setTimeout(30_000);

const collidingName = `a_b_${createHash('sha256').update('a.b').digest('hex').slice(0, 8)}`;
const where = (name: string): string => `MCP tool ${JSON.stringify(name)} on server 'hostile'`;

describe('MCPToolAdapter against a hostile server', () => {
  const adapter = new MCPToolAdapter(hostileServerStdio());
  afterAll(() => adapter.close());

  describe('listing', () => {
    it('keeps the usable tools when others are unusable', async () => {
      const tools = await adapter.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['echo', 'a.b', 'alternation', 'stars', 'keys']);
      expect((await adapter.getTools()).map((tool) => tool.name).sort()).toEqual(
        [collidingName, 'alternation', 'echo', 'keys', 'stars'].sort(),
      );
    });

    it('sets aside each unusable tool with a ToolDefinitionError saying why', async () => {
      await adapter.listTools();
      const problems = adapter.problems;
      expect(problems.every((problem) => problem instanceof ToolDefinitionError)).toBe(true);
      const messages = problems.map((problem) => problem.message);
      const prototypeName = (name: string): string =>
        `${where(name)} would get the local name '${name}', which every JavaScript object already has; it is set aside. Give the adapter a namePrefix (e.g. 'mcp_') to use it.`;
      expect(messages).toEqual(
        expect.arrayContaining([
          prototypeName('constructor'),
          prototypeName('__proto__'),
          prototypeName('toString'),
          `${where('deep')} has an input schema nested deeper than 64 levels.`,
          `${where('text_schema')} has an input schema that is not a JSON object.`,
          `${where('array_schema')} has an input schema that is not a JSON object.`,
          `${where('string_typed')} has an input schema of type "string"; tool arguments are one JSON object, so the server must declare type "object".`,
          `${where('no_schema')} has no input schema.`,
          "The tool at position 9 of the listing of MCP server 'hostile' has a name that is not a string (number 42); it is set aside.",
          "The tool at position 10 of the listing of MCP server 'hostile' is not a JSON object; it is set aside.",
          `MCP server 'hostile' has the tools "a.b" and "${collidingName}", which both map to the local name '${collidingName}'; "${collidingName}" is set aside. Rename one on the server.`,
        ]),
      );
      const patternProblems = messages.filter((message) => message.includes('linear-time engine'));
      expect(patternProblems).toEqual([
        `${where('backreference')} has an input schema that cannot be used: The pattern "^(a+)\\\\1$" uses back-references such as \\1, which the linear-time engine for untrusted schemas cannot run; the server must rewrite it without them. (at '#/properties/text/pattern')`,
        `${where('lookahead')} has an input schema that cannot be used: The pattern "^(?=x)x+$" uses look-arounds such as (?=…) and (?<!…), which the linear-time engine for untrusted schemas cannot run; the server must rewrite it without them. (at '#/patternProperties')`,
      ]);
      expect(problems).toHaveLength(13);
    });

    it('reports a set-aside tool when it is asked for, and still calls the others', async () => {
      await expect(adapter.wrapTool('constructor')).rejects.toThrow(ToolDefinitionError);
      await expect(adapter.wrapTool('deep')).rejects.toThrow(`${where('deep')} has an input schema nested`);
      await expect(adapter.getCallable('echo')({ text: 'hi' })).resolves.toBe('echo:{"text":"hi"}');
      await expect(adapter.getCallable('a.b')({})).resolves.toBe('a.b:{}');
    });

    it('exports prototype-named tools under a namePrefix', async () => {
      const prefixed = new MCPToolAdapter(
        hostileServerStdio({ namePrefix: 'mcp_', env: { HOSTILE_TOOLS: 'constructor,__proto__,toString' } }),
      );
      try {
        expect((await prefixed.getTools()).map((tool) => tool.name).sort()).toEqual([
          'mcp___proto__',
          'mcp_constructor',
          'mcp_toString',
        ]);
        expect(prefixed.problems).toEqual([]);
        await expect(prefixed.getCallable('mcp_constructor')({})).resolves.toBe('constructor:{}');
        await expect(prefixed.getCallable('__proto__')({})).resolves.toBe('__proto__:{}');
      } finally {
        await prefixed.close();
      }
    });
  });

  describe('catastrophic patterns (regression: a 10,000-character argument froze the process)', () => {
    const hostile = `${'a'.repeat(10_000)}!`;

    it.each(['alternation', 'stars'])(
      '%s: refuses a non-matching argument before sending it',
      async (name) => {
        const pattern = name === 'alternation' ? '^(a|a)*$' : '^a*a*a*a*a*a*a*a*$';
        const call = adapter.getCallable(name)({ text: hostile });
        await expect(call).rejects.toThrow(ToolValidationError);
        await expect(call).rejects.toThrow(`text: must match the pattern ${pattern}`);
      },
    );

    it.each(['alternation', 'stars'])('%s: sends a matching 10,000-character argument', async (name) => {
      const text = 'a'.repeat(10_000);
      await expect(adapter.getCallable(name)({ text })).resolves.toBe(`${name}:${JSON.stringify({ text })}`);
    });

    it('enforces a catastrophic patternProperties key', async () => {
      const key = 'a'.repeat(10_000);
      await expect(adapter.getCallable('keys')({ [key]: 'x' })).rejects.toThrow(
        `${key}: must be an integer, got the string "x"`,
      );
      await expect(adapter.getCallable('keys')({ [`${key}!`]: 1 })).rejects.toThrow(ToolValidationError);
      await expect(adapter.getCallable('keys')({ aa: 1 })).resolves.toBe('keys:{"aa":1}');
    });
  });
});
