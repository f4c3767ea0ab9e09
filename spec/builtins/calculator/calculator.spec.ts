import fc from 'fast-check';
import { ToolInputError } from '../../../lib/errors/tool-input-error';
import { ToolValidationError } from '../../../lib/errors/tool-validation-error';
import { Agent } from '../../../lib/agents/agent';
import type { LlmToolMessage } from '../../../lib/llm/llm';
import { runToolLoop } from '../../../lib/llm/run-tool-loop';
import { ScriptedLLM } from '../../../lib/llm/scripted-llm';
import { calculator } from '../../../lib/builtins/calculator/calculator';
import { NativeTool } from '../../../lib/tools/native-tool';
import { validateToolOutput } from '../../../lib/tools/validation/validate-tool-output';

async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new ToolInputError('expected a rejection');
}

describe('calculator', () => {
  describe('calculator()', () => {
    it('returns a fresh NativeTool named calculator on every call', () => {
      const first = calculator();
      const second = calculator();
      expect(first).toBeInstanceOf(NativeTool);
      expect(first).not.toBe(second);
      expect(first.inputSchema).not.toBe(second.inputSchema);
      expect(first.name).toBe('calculator');
    });

    it('has no capability, the builtin/math/read-only tags, the seed example and its builtin id', () => {
      const tool = calculator();
      expect(tool.capabilities).toEqual([]);
      expect(tool.tags).toEqual(['builtin', 'math', 'read-only']);
      expect(tool.examples).toEqual([{ expression: '(18 * 4) + 3' }]);
      expect(tool.metadata).toEqual({ builtin: { id: 'calculator', options: {} } });
      expect(tool.description).toContain('never executes code');
    });

    it('advertises a closed input schema with a 1–256 character expression', () => {
      const schema = calculator().inputSchema;
      expect(schema).toMatchObject({
        type: 'object',
        required: ['expression'],
        additionalProperties: false,
        properties: { expression: { type: 'string', minLength: 1, maxLength: 256 } },
      });
    });

    it('advertises a closed output schema whose result is a number, or a string of digits past 2**53', () => {
      const schema = calculator().outputSchema;
      expect(schema).toMatchObject({
        type: 'object',
        required: ['expression', 'result'],
        additionalProperties: false,
        properties: {
          expression: { type: 'string' },
          result: {
            anyOf: [
              { type: 'integer' },
              { type: 'number' },
              { type: 'string', pattern: '^-?[1-9][0-9]{15,}$' },
            ],
          },
        },
      });
      const result = (schema as { properties: { result: { description?: unknown } } }).properties.result;
      expect(result.description).toMatch(/2\*\*53/u);
    });
  });

  describe('call()', () => {
    it('evaluates the seed example and returns the trimmed expression', async () => {
      await expect(calculator().call({ expression: ' (18 + 6) / 3 ' })).resolves.toEqual({
        expression: '(18 + 6) / 3',
        result: 8,
      });
    });

    it('returns results that match its own output schema', async () => {
      const tool = calculator();
      for (const expression of ['(18 * 4) + 3', '7 / 2', '-7 // 2', '2**-1', '1e308', '2**100', '-(2**53)']) {
        const result = await tool.call({ expression });
        expect(validateToolOutput(result, tool.outputSchema!, 'calculator')).toEqual(result);
      }
    });

    it('returns integers past 2**53 - 1 as strings of their exact digits, as Python prints them', async () => {
      await expect(calculator().call({ expression: '2**100' })).resolves.toEqual({
        expression: '2**100',
        result: '1267650600228229401496703205376',
      });
      await expect(calculator().call({ expression: '2**53 - 1' })).resolves.toEqual({
        expression: '2**53 - 1',
        result: 9007199254740991,
      });
    });

    it('shows the model the exact digits of a large integer result', async () => {
      const agent = new Agent({
        card: { name: 'math', description: 'Computes', url: 'http://127.0.0.1:8080' },
        tools: [calculator()],
      });
      const llm = new ScriptedLLM([
        { toolCalls: [{ id: 'c1', name: 'calculator', arguments: { expression: '2**100' } }] },
        { text: 'done' },
      ]);
      const run = await runToolLoop(agent, 'What is 2**100?', { llm });
      expect(run.text).toBe('done');
      const [message] = llm.calls[1].messages.filter(
        (entry): entry is LlmToolMessage => entry.role === 'tool',
      );
      expect(message.content).toBe('{"expression":"2**100","result":"1267650600228229401496703205376"}');
    });

    it('rejects a missing, non-string, empty or too long expression through schema validation', async () => {
      const tool = calculator();
      for (const args of [{}, { expression: 42 }, { expression: '' }, { expression: '1'.repeat(257) }]) {
        const error = await rejectionOf(tool.call(args));
        expect(error).toBeInstanceOf(ToolValidationError);
        expect(error.message).toContain("Invalid arguments for tool 'calculator'");
      }
    });

    it('rejects unknown arguments', async () => {
      const error = await rejectionOf(calculator().call({ expression: '1', precision: 3 }));
      expect(error).toBeInstanceOf(ToolValidationError);
      expect((error as ToolValidationError).issues.map((issue) => issue.path)).toContain('precision');
    });

    it('rejects a blank expression that passes the schema with a ToolInputError', async () => {
      const error = await rejectionOf(calculator().call({ expression: '   ' }));
      expect(error).toBeInstanceOf(ToolInputError);
      expect(error).not.toBeInstanceOf(ToolValidationError);
      expect(error.message).toBe('calculator expression must not be empty.');
    });

    it('reports arithmetic errors as ToolInputError', async () => {
      const error = await rejectionOf(calculator().call({ expression: '1 / 0' }));
      expect(error).toBeInstanceOf(ToolInputError);
      expect(error.message).toContain('calculator cannot divide by zero');
    });

    it('never throws anything but ToolInputError for random strings (property)', async () => {
      const tool = calculator();
      await fc.assert(
        fc.asyncProperty(fc.string({ maxLength: 300, unit: 'binary' }), async (expression) => {
          try {
            const { result } = (await tool.call({ expression })) as { result: number | string };
            if (typeof result === 'string') expect(result).toMatch(/^-?[1-9][0-9]{15,}$/u);
            else expect(Number.isFinite(result)).toBe(true);
          } catch (error) {
            expect(error).toBeInstanceOf(ToolInputError);
          }
        }),
        { numRuns: 2000 },
      );
    });

    it('never throws anything but ToolInputError for strings of arithmetic characters (property)', async () => {
      const tool = calculator();
      const piece = fc.constantFrom(
        ...'0123456789.eEjxob_+-*/%() '.split(''),
        '**',
        '//',
        '1e308',
        '0x',
        '(-8)',
        '1/3',
        '**100',
        '**0.5',
      );
      await fc.assert(
        fc.asyncProperty(fc.array(piece, { maxLength: 60 }), async (pieces) => {
          const expression = pieces.join('').slice(0, 256);
          try {
            const { result } = (await tool.call({ expression })) as { result: number | string };
            if (typeof result === 'string') {
              expect(
                BigInt(result) > BigInt(Number.MAX_SAFE_INTEGER) ||
                  -BigInt(result) > BigInt(Number.MAX_SAFE_INTEGER),
              ).toBe(true);
            } else {
              expect(Math.abs(result)).toBeLessThanOrEqual(1e308);
            }
          } catch (error) {
            expect(error).toBeInstanceOf(ToolInputError);
            expect((error as Error).message).toMatch(
              /^(calculator |Invalid arguments for tool 'calculator')/,
            );
          }
        }),
        { numRuns: 3000 },
      );
    });

    it('floors and takes the divisor sign like Python for random integers (property)', async () => {
      const tool = calculator();
      const integer = fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n });
      await fc.assert(
        fc.asyncProperty(
          integer,
          integer.filter((value) => value !== 0n),
          async (left, right) => {
            const quotient = (
              (await tool.call({ expression: `(${left}) // (${right})` })) as { result: number }
            ).result;
            const remainder = (
              (await tool.call({ expression: `(${left}) % (${right})` })) as { result: number }
            ).result;
            expect(BigInt(quotient) * right + BigInt(remainder)).toBe(left);
            expect(remainder === 0 || remainder < 0 === right < 0n).toBe(true);
            expect(Math.abs(remainder)).toBeLessThan(Math.abs(Number(right)));
          },
        ),
        { numRuns: 500 },
      );
    });

    it('matches exact BigInt arithmetic for random integer sums and products (property)', async () => {
      const tool = calculator();
      const small = fc.bigInt({ min: -(10n ** 5n), max: 10n ** 5n });
      await fc.assert(
        fc.asyncProperty(small, small, small, async (a, b, c) => {
          const { result } = (await tool.call({
            expression: `(${a}) * (${b}) - (${c}) + (${a}) * (${c})`,
          })) as {
            result: number;
          };
          expect(BigInt(result)).toBe(a * b - c + a * c);
        }),
        { numRuns: 500 },
      );
    });
  });
});
