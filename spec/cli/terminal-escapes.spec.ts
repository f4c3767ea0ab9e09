import 'reflect-metadata';
import { join } from 'node:path';
import type { CliIo } from '../../lib/cli/cli-io';
import { runCli } from '../../lib/cli/run-cli';
import { stripTerminalEscapes } from '../../lib/cli/strip-terminal-escapes';
import { terminalSafeIo } from '../../lib/cli/terminal-safe-io';
import type { AgentServerHandle } from '../../lib/agents/agent-server-options';
import { startAgentServer } from '../../lib/server/start-agent-server';
import { agent, COLORS, OSC52, TITLE } from '../fixtures/serve/escaping-agent-module';

const ROOT = join(__dirname, '..', '..');
const MODULE = join(ROOT, 'spec', 'fixtures', 'serve', 'escaping-agent-module.ts');
// A real MCP server over stdio: `protolink serve --stdio` of the escaping module, in its own process.
const STDIO_SERVER = [
  // A fresh process compiles the sources first: slow on a busy machine.
  '--timeout',
  '120',
  '--',
  process.execPath,
  '-r',
  'ts-node/register/transpile-only',
  join(ROOT, 'spec', 'fixtures', 'serve', 'run-serve-cli.ts'),
  'serve',
  MODULE,
  '--stdio',
];
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

async function cli(...argv: string[]) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const io: CliIo = { out: (text) => stdout.push(text), err: (text) => stderr.push(text) };
  const code = await runCli(argv, io);
  return { code, stdout: stdout.join('\n'), stderr: stderr.join('\n') };
}

function expectClean(text: string): void {
  expect(text).not.toMatch(CONTROL);
  expect(text).not.toContain('52;c;');
  expect(text).not.toContain('pwned');
}

describe('stripTerminalEscapes', () => {
  it.each([
    ['CSI colors and clears', 'a\u001b[1;31mred\u001b[0m\u001b[2J b', 'ared b'],
    ['OSC 52 clipboard write (BEL)', `copy${OSC52}me`, 'copyme'],
    ['OSC title change (ST)', `t${TITLE}itle`, 'title'],
    ['OSC 8 hyperlink', 'q\u001b]8;;http://evil\u001b\\link\u001b]8;;\u001b\\', 'qlink'],
    ['8-bit CSI and OSC', 'a\u009b2Jb\u009d0;x\u009cc', 'abc'],
    ['DCS, APC and PM strings', 'a\u001bP1$r\u001b\\b\u001b_apc\u001b\\c\u001b^pm\u0007d', 'abcd'],
    ['an unterminated OSC (to the end)', 'keep \u001b]0;never ends', 'keep '],
    ['an unterminated CSI', 'x\u001b[12', 'x'],
    ['other ESC sequences (reset, charset)', '\u001bcA\u001b(0B', 'AB'],
    ['C0 and C1 controls but newline and tab', 'a\rb\u0008c\u0000d\u007fe\u0085f\n\tg', 'abcdef\n\tg'],
    ['CRLF to LF', 'one\r\ntwo', 'one\ntwo'],
    ['plain and non-ASCII text unchanged', 'héllo 日本 ✓', 'héllo 日本 ✓'],
  ])('removes %s', (_what, input, output) => {
    expect(stripTerminalEscapes(input)).toBe(output);
  });

  it('is what terminalSafeIo applies to both streams, once', () => {
    const written: string[] = [];
    const io = terminalSafeIo({
      out: (text) => written.push(`out:${text}`),
      err: (text) => written.push(`err:${text}`),
    });
    expect(terminalSafeIo(io)).toBe(io);
    io.out(`a${COLORS}b`);
    io.err(`c${OSC52}d`);
    expect(written).toEqual(['out:ab', 'err:cd']);
  });
});

describe('the CLI prints server-provided text without escape sequences', () => {
  let server: AgentServerHandle;

  beforeAll(async () => {
    server = await startAgentServer(agent);
  });
  afterAll(() => server.close());

  it('protolink mcp list (stdio server): descriptions in the table and the JSON', async () => {
    const table = await cli('mcp', 'list', ...STDIO_SERVER);
    expect(table.code).toBe(0);
    expectClean(table.stdout);
    expect(table.stdout).toMatch(/greet\s+name: string\s+Greets politelyOVERWRITTEN/);
    const json = await cli('mcp', 'list', '--json', ...STDIO_SERVER);
    expect(json.code).toBe(0);
    expect(json.stdout).not.toMatch(CONTROL);
    // JSON keeps the server's text, its control characters escaped (\u001b), never raw.
    const tools = JSON.parse(json.stdout) as { localName: string; description: string }[];
    expect(tools.find((tool) => tool.localName === 'greet')?.description).toContain(OSC52);
  }, 300_000);

  it('protolink mcp call (HTTP server): a result and a tool error', async () => {
    const result = await cli('mcp', 'call', 'greet', '--args', '{"name": "Ada"}', '--url', server.mcpUrl);
    expect(result).toEqual({ code: 0, stdout: 'Hello Ada!', stderr: '' });
    const failed = await cli('mcp', 'call', 'explode', '--url', server.mcpUrl);
    expect(failed.code).toBe(1);
    expectClean(failed.stderr);
    expect(failed.stderr).toMatch(/^protolink: ToolRuntimeError: .*boomall good/);
  });

  it('protolink tools: descriptions of a module', async () => {
    const result = await cli('tools', MODULE);
    expect(result.code).toBe(0);
    expectClean(result.stdout);
    expect(result.stdout).toMatch(/greet\s+-\s+-\s+Greets politelyOVERWRITTEN/);
  });

  it("commander's own errors (an unknown command echoed back)", async () => {
    const result = await cli(`list${TITLE}${OSC52}`);
    expect(result.code).toBe(2);
    expectClean(result.stderr);
    expect(result.stderr).toContain("unknown command 'list'");
  });
});
