import { isPermissiveSchema } from '../../../lib/tools/schema/is-permissive-schema';

describe('isPermissiveSchema', () => {
  it('is true for schemas that accept every value: true, {} and annotations only', () => {
    expect(isPermissiveSchema(true)).toBe(true);
    expect(isPermissiveSchema({})).toBe(true);
    expect(isPermissiveSchema({ title: 'fOutput' })).toBe(true);
    expect(isPermissiveSchema({ description: 'anything', $schema: 'x', examples: [1] })).toBe(true);
  });

  it('is false for a schema with one constraining keyword', () => {
    expect(isPermissiveSchema({ type: 'number', title: 'countOutput' })).toBe(false);
    expect(isPermissiveSchema({ properties: {} })).toBe(false);
    expect(isPermissiveSchema({ anyOf: [{ type: 'string' }] })).toBe(false);
    expect(isPermissiveSchema({ $ref: '#/$defs/Forecast', $defs: { Forecast: {} } })).toBe(false);
  });

  it('is false for what is not a schema object', () => {
    expect(isPermissiveSchema(false)).toBe(false);
    expect(isPermissiveSchema(null)).toBe(false);
    expect(isPermissiveSchema([])).toBe(false);
  });
});
