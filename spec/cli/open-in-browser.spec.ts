// The browser opener of `protolink mcp login`: the argv it would spawn on each platform (checked exactly), and a
// real spawn of a stand-in `xdg-open` that records the argv it received.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openInBrowser, toBrowserOpenCommand } from '../../lib/cli/open-in-browser';

/** What an authorization server put in its metadata to run a program through `cmd /c start`. */
const INJECTING = 'https://auth.example/a&calc.exe&rem/authorize?response_type=code&client_id=c&state=s';
const WINDOWS = { SystemRoot: 'C:\\Windows' };
const DISPLAY = { DISPLAY: ':0' };

describe('toBrowserOpenCommand', () => {
  describe('on win32', () => {
    it('passes the URL as one argument to rundll32 url.dll,FileProtocolHandler, never through cmd', () => {
      expect(toBrowserOpenCommand(INJECTING, 'win32', WINDOWS)).toEqual({
        command: 'C:\\Windows\\System32\\rundll32.exe',
        args: ['url.dll,FileProtocolHandler', INJECTING],
      });
    });

    it('finds rundll32 under windir, then C:\\Windows, never on the PATH or in the working directory', () => {
      expect(toBrowserOpenCommand('https://a.example/', 'win32', { windir: 'D:\\Win' })).toEqual({
        command: 'D:\\Win\\System32\\rundll32.exe',
        args: ['url.dll,FileProtocolHandler', 'https://a.example/'],
      });
      expect(toBrowserOpenCommand('https://a.example/', 'win32', { SystemRoot: 'Windows' })).toEqual({
        command: 'C:\\Windows\\System32\\rundll32.exe',
        args: ['url.dll,FileProtocolHandler', 'https://a.example/'],
      });
      expect(toBrowserOpenCommand('https://a.example/', 'win32', {})).toEqual({
        command: 'C:\\Windows\\System32\\rundll32.exe',
        args: ['url.dll,FileProtocolHandler', 'https://a.example/'],
      });
    });
  });

  describe('on darwin', () => {
    it('passes the URL as the one argument of /usr/bin/open', () => {
      expect(toBrowserOpenCommand(INJECTING, 'darwin', {})).toEqual({
        command: '/usr/bin/open',
        args: [INJECTING],
      });
    });
  });

  describe('on linux', () => {
    it('passes the URL as the one argument of xdg-open when there is a display', () => {
      expect(toBrowserOpenCommand(INJECTING, 'linux', DISPLAY)).toEqual({
        command: 'xdg-open',
        args: [INJECTING],
      });
      expect(toBrowserOpenCommand(INJECTING, 'linux', { WAYLAND_DISPLAY: 'wayland-0' })).toEqual({
        command: 'xdg-open',
        args: [INJECTING],
      });
    });

    it('refuses when there is no display to open it on', () => {
      expect(toBrowserOpenCommand(INJECTING, 'linux', {})).toEqual({
        refused: expect.stringMatching(/no graphical display/),
      });
    });
  });

  describe('schemes and hosts', () => {
    it.each([
      ['smb://attacker.example/share/payload.exe'],
      ['file:///C:/Windows/System32/calc.exe'],
      ['file:///usr/bin/xcalc'],
      ['javascript:alert(1)'],
      ['data:text/html,<script>alert(1)</script>'],
      ['ftp://files.example/x'],
      ['ms-msdt:/id PCWDiagnostic'],
    ])('refuses %s on every platform', (url) => {
      for (const [platform, env] of [
        ['win32', WINDOWS],
        ['darwin', {}],
        ['linux', DISPLAY],
      ] as const) {
        expect(toBrowserOpenCommand(url, platform, env)).toEqual({
          refused: expect.stringMatching(/^not opening a non-https URL automatically/),
        });
      }
    });

    it.each([
      ['http://example.com/authorize'],
      ['http://10.0.0.1/authorize'],
      ['http://localhost.attacker.example/authorize'],
      ['http://128.0.0.1/authorize'],
    ])('refuses %s: http only for a loopback host', (url) => {
      expect(toBrowserOpenCommand(url, 'darwin', {})).toEqual({
        refused: expect.stringMatching(/^not opening an http URL of a host other than this machine/),
      });
    });

    it.each([
      ['http://127.0.0.1:8123/authorize?state=s', 'http://127.0.0.1:8123/authorize?state=s'],
      ['http://127.45.6.7/authorize', 'http://127.45.6.7/authorize'],
      ['http://[::1]:8123/authorize', 'http://[::1]:8123/authorize'],
      ['http://localhost:3000/authorize', 'http://localhost:3000/authorize'],
      ['http://LOCALHOST:3000/authorize', 'http://localhost:3000/authorize'],
      ['http://0x7f.1/authorize', 'http://127.0.0.1/authorize'],
    ])('accepts %s: http on a loopback host', (url, href) => {
      expect(toBrowserOpenCommand(url, 'darwin', {})).toEqual({ command: '/usr/bin/open', args: [href] });
    });

    it('refuses what is not a URL', () => {
      expect(toBrowserOpenCommand('not a url', 'darwin', {})).toEqual({
        refused: expect.stringMatching(/not a valid URL/),
      });
    });
  });

  describe('serialization', () => {
    it('hands over the re-serialized URL: no spaces, quotes or control characters', () => {
      const result = toBrowserOpenCommand(
        new URL('https://auth.example/a b/authorize?x="y z"\u0001&q=ü#"frag"'),
        'win32',
        WINDOWS,
      );
      expect(result).toEqual({
        command: 'C:\\Windows\\System32\\rundll32.exe',
        args: [
          'url.dll,FileProtocolHandler',
          'https://auth.example/a%20b/authorize?x=%22y%20z%22%01&q=%C3%BC#%22frag%22',
        ],
      });
    });

    it('trims and re-serializes a string URL the same way', () => {
      expect(toBrowserOpenCommand('  https://AUTH.example/x y\t\n', 'darwin', {})).toEqual({
        command: '/usr/bin/open',
        args: ['https://auth.example/x%20y'],
      });
    });

    it('refuses a URL that still holds a quote, a space or a backtick once serialized (they are legal in a host)', () => {
      for (const url of ['https://a"b.example/', 'https://a`b.example/', 'https://x.example/?q=a|b^c']) {
        expect(toBrowserOpenCommand(url, 'win32', WINDOWS)).toEqual({
          refused: expect.stringMatching(/characters a URL does not need/),
        });
      }
    });
  });
});

describe('openInBrowser', () => {
  let directory: string;
  let record: string;

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'protolink-browser-'));
    record = join(directory, 'argv.json');
    // A stand-in xdg-open that writes down the argv it was started with.
    writeFileSync(
      join(directory, 'xdg-open'),
      `#!${process.execPath}\nrequire('node:fs').writeFileSync(${JSON.stringify(record)}, JSON.stringify(process.argv.slice(2)));\n`,
    );
    chmodSync(join(directory, 'xdg-open'), 0o755);
  });

  afterEach(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  async function recordedArgv(): Promise<string[]> {
    for (let waited = 0; waited < 10_000 && !existsSync(record); waited += 25) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return JSON.parse(readFileSync(record, 'utf8')) as string[];
  }

  const onLinux = process.platform === 'linux' ? it : it.skip;

  onLinux('spawns the opener with the URL as its one argument, without a shell', async () => {
    const failures: Error[] = [];
    const plan = openInBrowser(INJECTING, {
      platform: 'linux',
      env: { DISPLAY: ':0', PATH: directory },
      onFailure: (error) => failures.push(error),
    });
    expect(plan).toEqual({ command: 'xdg-open', args: [INJECTING] });
    expect(await recordedArgv()).toEqual([INJECTING]);
    expect(failures).toEqual([]);
  });

  it('spawns nothing for a refused URL and says why', async () => {
    const plan = openInBrowser('smb://attacker.example/share', {
      platform: 'linux',
      env: { DISPLAY: ':0', PATH: directory },
    });
    expect(plan).toEqual({ refused: expect.stringMatching(/^not opening a non-https URL automatically/) });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(existsSync(record)).toBe(false);
  });

  onLinux('reports an opener that cannot be started to onFailure', async () => {
    const empty = join(directory, 'empty');
    const failure = await new Promise<Error>((resolve) => {
      openInBrowser('https://auth.example/authorize', {
        platform: 'linux',
        env: { DISPLAY: ':0', PATH: empty },
        onFailure: resolve,
      });
    });
    expect((failure as NodeJS.ErrnoException).code).toBe('ENOENT');
  });
});
