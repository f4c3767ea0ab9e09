import { redactCommandArgs } from '../../../lib/mcp/client/redact-command-args';

describe('redactCommandArgs', () => {
  it('strips the user info and query values of URLs, alone or after a flag', () => {
    expect(
      redactCommandArgs([
        'server.js',
        'postgresql://user:hunter2@db/x',
        '--db=postgres://app:hunter2@db:5432/app?sslpassword=hunter2',
        'https://mcp.example/path',
      ]),
    ).toEqual([
      'server.js',
      'postgresql://db/x',
      '--db=postgres://db:5432/app?sslpassword=redacted',
      'https://mcp.example/path',
    ]);
  });

  it('masks the value of flags named after a credential, separate or joined', () => {
    expect(
      redactCommandArgs([
        '--api-key',
        'sk-123',
        '--token=abc',
        '--client-secret',
        's3',
        '-password=pw',
        '--AUTH',
        'user:pw',
        '--verbose',
        '--port',
        '3000',
      ]),
    ).toEqual([
      '--api-key',
      'redacted',
      '--token=redacted',
      '--client-secret',
      'redacted',
      '-password=redacted',
      '--AUTH',
      'redacted',
      '--verbose',
      '--port',
      '3000',
    ]);
  });

  it('leaves a secret-named flag followed by another flag, and plain arguments, unchanged', () => {
    expect(redactCommandArgs(['--no-key', '--stdio', 'key.txt'])).toEqual(['--no-key', '--stdio', 'key.txt']);
    expect(redactCommandArgs([])).toEqual([]);
  });
});
