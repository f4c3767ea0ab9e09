import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { RunContext } from '../../../lib/runtime/run-context';
import { ServedCallAbort } from '../../../lib/mcp/serve/served-call-abort';

describe('ServedCallAbort', () => {
  it('cancels the context it made, with the reason a signal would give', () => {
    const abort = new ServedCallAbort();
    const context = abort.newContext('session-1');
    expect([context.sessionId, context.canceled, abort.aborted]).toEqual(['session-1', false, false]);
    abort.abort(new McpError(ErrorCode.ConnectionClosed, 'Connection closed'));
    expect(abort.aborted).toBe(true);
    expect(context.canceled).toBe(true);
    expect(context.cancelReason).toBe('MCP error -32000: Connection closed');
    expect(() => context.throwIfCanceled('hold')).toThrow(
      /was canceled \(MCP error -32000: Connection closed\); tool 'hold' did not complete/,
    );
  });

  it('makes a context canceled at once when the call was aborted before it', () => {
    const abort = new ServedCallAbort();
    abort.abort('user stopped it');
    const context = abort.newContext(null);
    expect([context.canceled, context.cancelReason]).toEqual([true, 'user stopped it']);
  });

  it('gives a call aborted without a reason the reason a signal would give (as on the SDK path)', () => {
    const abort = new ServedCallAbort();
    const context = abort.newContext(null);
    abort.abort(undefined);
    const controller = new AbortController();
    controller.abort(undefined);
    const signalContext = new RunContext({ signal: controller.signal });
    expect(context.cancelReason).toMatch(/This operation was aborted/);
    expect(context.cancelReason).toBe(signalContext.cancelReason);
    expect(abort.signal.reason).toMatchObject({ name: 'AbortError' });
  });

  it('makes a signal only when asked, aborted with the call (before or after it is made)', () => {
    const early = new ServedCallAbort();
    const signal = early.signal;
    expect(early.signal).toBe(signal);
    expect(signal.aborted).toBe(false);
    early.abort('stop');
    expect([signal.aborted, signal.reason]).toEqual([true, 'stop']);

    const late = new ServedCallAbort();
    late.abort('gone');
    expect([late.signal.aborted, late.signal.reason]).toEqual([true, 'gone']);
  });

  it('aborts once: a second reason changes nothing', () => {
    const abort = new ServedCallAbort();
    const context = abort.newContext(null);
    abort.abort('first');
    abort.abort('second');
    expect([context.cancelReason, abort.signal.reason]).toEqual(['first', 'first']);
  });

  it('forgets a released context: a finished call is not canceled afterwards', () => {
    const abort = new ServedCallAbort();
    const context = abort.newContext(null);
    abort.release();
    abort.abort('too late');
    expect(abort.aborted).toBe(true);
    expect(context.canceled).toBe(false);
  });
});
