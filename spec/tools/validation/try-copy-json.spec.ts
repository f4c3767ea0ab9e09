import { NOT_COPIED, tryCopyJson } from '../../../lib/tools/validation/try-copy-json';
import { DEFAULT_VALIDATION_LIMITS } from '../../../lib/tools/validation/validation-limits';

describe('tryCopyJson', () => {
  it('deep-copies plain JSON data into new objects and arrays', () => {
    const input = { a: 1, nested: { list: [1, 'two', { three: true }], none: null } };
    const copy = tryCopyJson(input, DEFAULT_VALIDATION_LIMITS) as typeof input;
    expect(copy).toEqual(input);
    expect(copy).not.toBe(input);
    expect(copy.nested).not.toBe(input.nested);
    expect(copy.nested.list).not.toBe(input.nested.list);
  });

  it('drops undefined properties like JSON does', () => {
    expect(tryCopyJson({ a: undefined, b: 2 }, DEFAULT_VALIDATION_LIMITS)).toEqual({ b: 2 });
  });

  it.each([
    ['an unsafe key', JSON.parse('{"__proto__": {"polluted": true}}')],
    ['a constructor key', { nested: { constructor: 1 } }],
    ['a non-finite number', { value: Number.POSITIVE_INFINITY }],
    ['a function', { value: () => 1 }],
    ['a Date', { value: new Date(0) }],
    ['a Map', { value: new Map() }],
    ['a bigint', { value: BigInt(1) }],
  ])('gives up on %s, leaving the report to the full walk', (_case, value) => {
    expect(tryCopyJson(value, DEFAULT_VALIDATION_LIMITS)).toBe(NOT_COPIED);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('gives up past the depth, size and string limits', () => {
    const limits = { ...DEFAULT_VALIDATION_LIMITS, maxDepth: 2, maxNodes: 4, maxStringLength: 3 };
    expect(tryCopyJson({ a: { b: 1 } }, limits)).toEqual({ a: { b: 1 } });
    expect(tryCopyJson({ a: { b: { c: 1 } } }, limits)).toBe(NOT_COPIED);
    expect(tryCopyJson({ a: [1, 2, 3, 4] }, limits)).toBe(NOT_COPIED);
    expect(tryCopyJson({ a: 'abcd' }, limits)).toBe(NOT_COPIED);
  });

  it('copies objects without a prototype into plain objects, and values read through getters', () => {
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1 });
    const copy = tryCopyJson(
      {
        bare,
        get computed() {
          return 'read';
        },
      },
      DEFAULT_VALIDATION_LIMITS,
    ) as {
      bare: object;
      computed: string;
    };
    expect(Object.getPrototypeOf(copy.bare)).toBe(Object.prototype);
    expect(copy).toEqual({ bare: { a: 1 }, computed: 'read' });
    expect(Object.getOwnPropertyDescriptor(copy, 'computed')?.get).toBeUndefined();
  });

  it.each([
    [
      'a class instance',
      {
        value: new (class Point {
          x = 1;
        })(),
      },
    ],
    ['an Array subclass', { value: new (class List extends Array<number> {})() }],
    ['an array item it cannot copy', { value: [1, () => 2] }],
  ])('gives up on %s (the walk decides)', (_case, value) => {
    expect(tryCopyJson(value, DEFAULT_VALIDATION_LIMITS)).toBe(NOT_COPIED);
  });

  it('gives up while Object.prototype has enumerable properties (for...in would list them)', () => {
    Object.defineProperty(Object.prototype, 'injected', { value: 1, enumerable: true, configurable: true });
    try {
      expect(tryCopyJson({ a: 1 }, DEFAULT_VALIDATION_LIMITS)).toBe(NOT_COPIED);
    } finally {
      delete (Object.prototype as Record<string, unknown>).injected;
    }
    expect(tryCopyJson({ a: 1 }, DEFAULT_VALIDATION_LIMITS)).toEqual({ a: 1 });
  });

  it('counts every value against maxNodes, nested or not', () => {
    const limits = { ...DEFAULT_VALIDATION_LIMITS, maxNodes: 4 };
    expect(tryCopyJson({ a: 1, b: null, c: 'x' }, limits)).toEqual({ a: 1, b: null, c: 'x' });
    expect(tryCopyJson({ a: 1, b: null, c: 'x', d: true }, limits)).toBe(NOT_COPIED);
    expect(tryCopyJson({ a: { b: { c: 1 } } }, limits)).toEqual({ a: { b: { c: 1 } } });
    expect(tryCopyJson({ a: { b: { c: [1] } } }, limits)).toBe(NOT_COPIED);
  });

  it('never shares nested objects or arrays with the input', () => {
    const input = { list: [{ deep: [1] }], map: { inner: { x: 1 } } };
    const copy = tryCopyJson(input, DEFAULT_VALIDATION_LIMITS) as typeof input;
    copy.list[0].deep.push(2);
    copy.map.inner.x = 2;
    expect(input).toEqual({ list: [{ deep: [1] }], map: { inner: { x: 1 } } });
  });
});
