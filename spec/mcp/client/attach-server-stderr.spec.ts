import { ToolRuntimeError } from '../../../lib/errors/tool-runtime-error';
import { serverStderrOf } from '../../../lib/mcp/client';
import { attachServerStderr } from '../../../lib/mcp/client/attach-server-stderr';

describe('attachServerStderr', () => {
  it('attaches the stderr as a non-enumerable serverStderr, out of the message and toJSON', () => {
    const error = attachServerStderr(new ToolRuntimeError('failed'), 'password=hunter2');
    expect((error as ToolRuntimeError & { serverStderr?: string }).serverStderr).toBe('password=hunter2');
    expect(error.message).toBe('failed');
    expect(Object.keys(error)).not.toContain('serverStderr');
    expect(JSON.stringify(error)).not.toContain('hunter2');
  });

  it('attaches nothing for an empty stderr', () => {
    expect('serverStderr' in attachServerStderr(new ToolRuntimeError('failed'), '')).toBe(false);
  });
});

describe('serverStderrOf', () => {
  it('finds the stderr on the error or along its causes, else undefined', () => {
    const inner = attachServerStderr(new ToolRuntimeError('inner'), 'trace');
    expect(serverStderrOf(inner)).toBe('trace');
    expect(serverStderrOf(new ToolRuntimeError('outer', { cause: inner }))).toBe('trace');
    expect(serverStderrOf(new ToolRuntimeError('plain'))).toBeUndefined();
    expect(serverStderrOf('not an error')).toBeUndefined();
  });
});
