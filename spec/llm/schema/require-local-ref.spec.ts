import { ToolDefinitionError } from '../../../lib/errors/tool-definition-error';
import { requireLocalRef } from '../../../lib/llm/schema/require-local-ref';

const scope = { toolName: 'reserve_room', target: 'Example' };
const root = { type: 'object', $defs: { Guest: { type: 'object', properties: {} } } };

describe('requireLocalRef', () => {
  describe('resolution', () => {
    it('returns the local definition a reference names', () => {
      expect(requireLocalRef(root, '#/$defs/Guest', scope, '#/properties/guest')).toBe(root.$defs.Guest);
    });

    it('returns the root for #', () => {
      expect(requireLocalRef(root, '#', scope, '#/properties/self')).toBe(root);
    });
  });

  describe('errors', () => {
    it('throws ToolDefinitionError naming the path when the reference is not local', () => {
      const call = () => requireLocalRef(root, 'https://example.com/guest.json', scope, '#/properties/guest');
      expect(call).toThrow(ToolDefinitionError);
      expect(call).toThrow(
        `Tool 'reserve_room' cannot be exported for Example: #/properties/guest refers to "https://example.com/guest.json", which is not a local definition. Inline the schema or move it under $defs.`,
      );
    });

    it('throws ToolDefinitionError when a local definition is missing', () => {
      const call = () => requireLocalRef(root, '#/$defs/Room', scope, '#/properties/room');
      expect(call).toThrow(ToolDefinitionError);
      expect(call).toThrow(
        `Tool 'reserve_room' cannot be exported for Example: #/properties/room refers to "#/$defs/Room", which is not a local definition. Inline the schema or move it under $defs.`,
      );
    });
  });
});
