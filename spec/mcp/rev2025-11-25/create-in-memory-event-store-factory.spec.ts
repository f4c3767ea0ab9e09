import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ToolInputError } from '../../../lib/errors/tool-input-error';
import { createInMemoryEventStoreFactory } from '../../../lib/mcp/rev2025-11-25/create-in-memory-event-store-factory';

function result(id: number): JSONRPCMessage {
  return { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'x'.repeat(1_000) }] } };
}

describe('createInMemoryEventStoreFactory', () => {
  it('gives each session its own store, all within one shared byte bound', async () => {
    const create = createInMemoryEventStoreFactory({ maxBytes: 5_000, maxBytesPerSession: 4_000 });
    const first = create();
    const second = create();
    expect(first).not.toBe(second);
    for (let n = 1; n <= 4; n += 1) {
      await first.storeEvent(`a-${n}`, result(n));
      await second.storeEvent(`b-${n}`, result(n));
    }
    expect(first.storedBytes).toBeLessThanOrEqual(4_000);
    expect(first.storedBytes + second.storedBytes).toBeLessThanOrEqual(5_000);
    // Each alone would keep three results (4,000 bytes): only the shared bound holds them to four together.
    expect(first.size + second.size).toBe(4);
    first.close();
    second.close();
  });

  it('refuses bad bounds when called, before any session opens', () => {
    expect(() => createInMemoryEventStoreFactory({ maxBytes: -1 })).toThrow(ToolInputError);
    expect(() => createInMemoryEventStoreFactory({ maxBytesPerSession: Number.NaN })).toThrow(
      'InMemoryEventStore maxBytes must be a whole number of at least 1, got NaN.',
    );
    expect(() => createInMemoryEventStoreFactory({ resumeWindowMs: 0 })).toThrow(ToolInputError);
  });
});
