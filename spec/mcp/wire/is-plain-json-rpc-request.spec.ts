import { JSONRPCMessageSchema, JSONRPCRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { isPlainJsonRpcRequest } from '../../../lib/mcp/wire/is-plain-json-rpc-request';

describe('isPlainJsonRpcRequest', () => {
  it('accepts the plain requests clients send', () => {
    expect(
      isPlainJsonRpcRequest({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'add', arguments: { a: 1, b: 2 } },
      }),
    ).toBe(true);
    expect(isPlainJsonRpcRequest({ jsonrpc: '2.0', id: 'a-1', method: 'tools/list' })).toBe(true);
    expect(isPlainJsonRpcRequest(JSON.parse('{"jsonrpc":"2.0","id":-3,"method":"ping","params":{}}'))).toBe(
      true,
    );
    expect(isPlainJsonRpcRequest({ jsonrpc: '2.0', id: 1, method: 'ping', params: undefined })).toBe(true);
  });

  it.each([
    ['params', 'bad', { jsonrpc: '2.0', id: 1, method: 'ping' }],
    ['_meta', 'bad', { jsonrpc: '2.0', id: 1, method: 'ping', params: {} }],
  ])('judges an inherited %s as the SDK schema does', (key, value, message) => {
    for (const enumerable of [false, true]) {
      Object.defineProperty(Object.prototype, key, { value, enumerable, configurable: true, writable: true });
      try {
        expect(JSONRPCRequestSchema.safeParse(message).success).toBe(false);
        expect(isPlainJsonRpcRequest(message)).toBe(false);
      } finally {
        delete (Object.prototype as Record<string, unknown>)[key];
      }
    }
  });

  it.each([
    ['a notification (no id)', { jsonrpc: '2.0', method: 'notifications/initialized' }],
    ['a response', { jsonrpc: '2.0', id: 1, result: {} }],
    ['another version', { jsonrpc: '1.0', id: 1, method: 'ping' }],
    ['a fractional id', { jsonrpc: '2.0', id: 1.5, method: 'ping' }],
    ['an unsafe integer id', { jsonrpc: '2.0', id: 2 ** 53, method: 'ping' }],
    ['a null id', { jsonrpc: '2.0', id: null, method: 'ping' }],
    ['an extra key', { jsonrpc: '2.0', id: 1, method: 'ping', extra: true }],
    ['params with _meta', { jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: { progressToken: 1 } } }],
    ['array params', { jsonrpc: '2.0', id: 1, method: 'ping', params: [] }],
    ['a class instance', Object.assign(new (class Message {})(), { jsonrpc: '2.0', id: 1, method: 'ping' })],
    ['an array', [{ jsonrpc: '2.0', id: 1, method: 'ping' }]],
    ['null', null],
  ])('leaves %s to the SDK schema', (_case, message) => {
    expect(isPlainJsonRpcRequest(message)).toBe(false);
  });

  it('accepts nothing the SDK schema refuses', () => {
    const value = fc.oneof(
      fc.constant(undefined),
      fc.constant(null),
      fc.boolean(),
      fc.integer(),
      fc.double(),
      fc.constantFrom(-0, 2 ** 53, -(2 ** 53) + 1, Number.NaN, Number.POSITIVE_INFINITY),
      fc.string({ maxLength: 4 }),
      fc.constant([]),
      fc.dictionary(fc.constantFrom('_meta', 'name', 'progressToken', '__proto__'), fc.jsonValue(), {
        maxKeys: 3,
      }),
    );
    const message = fc.dictionary(
      fc.constantFrom('jsonrpc', 'id', 'method', 'params', 'result', 'error', 'extra'),
      fc.oneof(value, fc.constant('2.0')),
      { maxKeys: 5 },
    );
    // Requests of the accepted shape, varied in every value the check looks at.
    const request = fc.record(
      {
        jsonrpc: fc.constant('2.0'),
        id: fc.oneof(fc.string({ maxLength: 4 }), fc.integer(), fc.constantFrom(-0, 2 ** 53 - 1)),
        method: fc.string({ maxLength: 8 }),
        params: fc.dictionary(fc.constantFrom('name', 'arguments', 'cursor'), fc.jsonValue(), {
          maxKeys: 3,
          noNullPrototype: true,
        }),
      },
      { requiredKeys: ['jsonrpc', 'id', 'method'], noNullPrototype: true },
    );
    fc.assert(
      fc.property(fc.oneof(message, request), (candidate) => {
        if (isPlainJsonRpcRequest(candidate)) {
          expect(JSONRPCRequestSchema.safeParse(candidate).success).toBe(true);
          expect(JSONRPCMessageSchema.safeParse(candidate).success).toBe(true);
        }
      }),
      { numRuns: 3000 },
    );
    // The property is not vacuous: every generated request of that shape is accepted.
    for (const candidate of fc.sample(request, 200)) expect(isPlainJsonRpcRequest(candidate)).toBe(true);
  });
});
