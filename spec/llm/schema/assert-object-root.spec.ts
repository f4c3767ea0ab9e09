import { ToolDefinitionError } from '../../../lib/errors/tool-definition-error';
import { assertObjectRoot } from '../../../lib/llm/schema/assert-object-root';

const scope = { toolName: 'search', target: 'Example', fallback: 'Try { strict: false }.' };
const strictRules = { unionFix: 'Wrap the union in a property.', allowUntypedRoot: false };
const broadRules = { unionFix: 'Wrap the union in a property.', allowUntypedRoot: true };

describe('assertObjectRoot', () => {
  describe('accepted roots', () => {
    it('passes an object root, and an untyped root with properties, under both rules', () => {
      for (const rules of [strictRules, broadRules]) {
        expect(assertObjectRoot({ type: 'object' }, scope, rules)).toBeUndefined();
        expect(assertObjectRoot({ properties: {} }, scope, rules)).toBeUndefined();
      }
    });

    it('passes an untyped root without properties when allowUntypedRoot is true', () => {
      expect(assertObjectRoot({}, scope, broadRules)).toBeUndefined();
    });
  });

  describe('errors', () => {
    it('throws ToolDefinitionError with the union fix when the root is a union', () => {
      const call = () => assertObjectRoot({ oneOf: [{ type: 'object' }] }, scope, broadRules);
      expect(call).toThrow(ToolDefinitionError);
      expect(call).toThrow(
        "Tool 'search' cannot be exported for Example: # is a union (anyOf/oneOf/allOf) at the root. Wrap the union in a property. Try { strict: false }.",
      );
    });

    it('throws ToolDefinitionError when the root has another type', () => {
      const call = () => assertObjectRoot({ type: 'string' }, scope, broadRules);
      expect(call).toThrow(ToolDefinitionError);
      expect(call).toThrow(
        `Tool 'search' cannot be exported for Example: # has type "string", not "object". Tool arguments must be one object. Try { strict: false }.`,
      );
    });

    it('throws ToolDefinitionError for an untyped root without properties when allowUntypedRoot is false', () => {
      const call = () => assertObjectRoot({}, scope, strictRules);
      expect(call).toThrow(ToolDefinitionError);
      expect(call).toThrow(
        'Tool \'search\' cannot be exported for Example: # has type undefined, not "object". Tool arguments must be one object. Try { strict: false }.',
      );
    });
  });
});
