import {
  asDefinitionRecord,
  describeRecordChange,
  quoteDefinitionValue,
} from '../../../lib/mcp/client/describe-definition-field';

describe('describeRecordChange', () => {
  it('says each key that changed, in key order, and nothing for equal values in another key order', () => {
    expect(
      describeRecordChange('annotations', { b: 1, a: { x: 1, y: 2 } }, { a: { y: 2, x: 1 }, b: 2, c: true }),
    ).toEqual(['annotations.b: 1 → 2', 'annotations.c: (absent) → true']);
    expect(describeRecordChange('meta', 'not a record', null)).toEqual([]);
  });
});

describe('quoteDefinitionValue', () => {
  it('quotes canonical JSON, cut past 400 characters with the full length', () => {
    expect(quoteDefinitionValue({ b: 1, a: 2 })).toBe('{"a":2,"b":1}');
    const quoted = quoteDefinitionValue('x'.repeat(1000));
    expect(quoted).toMatch(/^"x{399}… \(1002 characters\)$/);
  });
});

describe('asDefinitionRecord', () => {
  it('gives an empty record for arrays and non-objects', () => {
    expect(asDefinitionRecord([1])).toEqual({});
    expect(asDefinitionRecord(7)).toEqual({});
    expect(asDefinitionRecord({ a: 1 })).toEqual({ a: 1 });
  });
});
