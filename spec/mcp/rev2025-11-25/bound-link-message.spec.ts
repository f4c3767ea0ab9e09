import {
  MAX_CANCEL_REASON_LENGTH,
  MAX_CANCEL_REQUEST_ID_LENGTH,
  toBoundedLinkMessage,
} from '../../../lib/mcp/rev2025-11-25/bound-link-message';

const cancel = (params: Record<string, unknown>) =>
  ({
    t: 'cancel',
    from: 'p1',
    m: {
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { ...params, extra: 'x'.repeat(10_000) },
    },
  }) as const;

describe('toBoundedLinkMessage', () => {
  it('keeps only the request id and a reason cut short of a cancel', () => {
    expect(toBoundedLinkMessage(cancel({ requestId: 7, reason: 'r'.repeat(5_000) }))).toEqual({
      t: 'cancel',
      from: 'p1',
      m: {
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 7, reason: 'r'.repeat(MAX_CANCEL_REASON_LENGTH) },
      },
    });
    const id = 'i'.repeat(MAX_CANCEL_REQUEST_ID_LENGTH);
    expect(toBoundedLinkMessage(cancel({ requestId: id }))).toMatchObject({
      m: {
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: id },
      },
    });
  });

  it('passes on no cancel whose request id is no id: a 900 kB string, an object, a fraction, none', () => {
    for (const requestId of ['i'.repeat(900_000), { nested: ['x'.repeat(1_000)] }, 1.5, undefined])
      expect(toBoundedLinkMessage(cancel({ requestId, reason: 'r' }))).toBeUndefined();
  });

  it('leaves other messages as they are', () => {
    const level = { t: 'level', from: 'p1', level: 'debug' } as const;
    expect(toBoundedLinkMessage(level)).toBe(level);
  });
});
