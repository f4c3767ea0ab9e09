import 'reflect-metadata';
import { join } from 'node:path';
import { Agent } from '../../lib/agents/agent';
import type { CliIo } from '../../lib/cli/cli-io';
import { runCli } from '../../lib/cli/run-cli';
import { startAgentServer } from '../../lib/server/start-agent-server';
import type { AgentServerHandle } from '../../lib/agents/agent-server-options';
import { calculator } from '../../lib/builtins/calculator/calculator';

const root = join(__dirname, '../..');
const sampleServer = [
  process.execPath,
  '-r',
  'ts-node/register/transpile-only',
  join(root, 'samples/05-mcp/server.ts'),
];

async function cli(...argv: string[]) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const io: CliIo = { out: (text) => stdout.push(text), err: (text) => stderr.push(text) };
  const code = await runCli(argv, io);
  return { code, stdout: stdout.join('\n'), stderr };
}

describe('protolink mcp', () => {
  describe('over stdio (the command after --)', () => {
    it('lists the tools of the sample server as a table', async () => {
      const result = await cli('mcp', 'list', '--', ...sampleServer);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^tool\s+arguments\s+description/);
      expect(result.stdout).toMatch(/add\s+a: integer, b: integer\s+Add two integers/);
      expect(result.stdout).toContain('5 tools; --json prints their schemas.');
    });

    it('calls a tool, validating the arguments against the server schema first', async () => {
      expect(
        await cli('mcp', 'call', 'multiply', '--args', '{"a": 3, "b": "4"}', '--', ...sampleServer),
      ).toEqual({
        code: 0,
        stdout: '12',
        stderr: [],
      });
      const invalid = await cli(
        'mcp',
        'call',
        'add',
        '--args',
        '{"a": "three", "b": 4}',
        '--',
        ...sampleServer,
      );
      expect(invalid.code).toBe(1);
      expect(invalid.stderr).toHaveLength(1);
      expect(invalid.stderr[0]).toMatch(/^protolink: ToolValidationError: .*a: /);
    });

    it('reports a server tool error in one line', async () => {
      const result = await cli(
        'mcp',
        'call',
        'fail',
        '--args',
        '{"reason": "on purpose"}',
        '--',
        ...sampleServer,
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toEqual([
        expect.stringMatching(/^protolink: ToolRuntimeError: MCP tool 'fail' .*on purpose/),
      ]);
    });

    it('reports a command that cannot start in one line', async () => {
      const result = await cli('mcp', 'list', '--', 'protolink-no-such-command');
      expect(result.code).toBe(1);
      expect(result.stderr).toEqual([
        expect.stringMatching(/^protolink: ToolRuntimeError: Could not open a session .*ENOENT/),
      ]);
    });
  });

  describe('over HTTP (--url)', () => {
    let server: AgentServerHandle;
    beforeAll(async () => {
      const agent = new Agent({
        card: { name: 'calc', description: 'Math', url: 'http://127.0.0.1:0' },
        tools: [calculator()],
      });
      server = await startAgentServer(agent, { token: 'secret-token' });
    });
    afterAll(() => server.close());

    it('lists and calls the tools of a served agent with a bearer token', async () => {
      const auth = ['--header', 'Authorization: Bearer secret-token'];
      const listed = await cli('mcp', 'list', '--url', server.mcpUrl, ...auth, '--json');
      expect(JSON.parse(listed.stdout).map((tool: { name: string }) => tool.name)).toEqual(['calculator']);
      const called = await cli(
        'mcp',
        'call',
        'calculator',
        '--url',
        server.mcpUrl,
        ...auth,
        '--args',
        '{"expression": "7 // 2"}',
      );
      expect(JSON.parse(called.stdout)).toEqual({ expression: '7 // 2', result: 3 });
    });

    it('fails in one line without the token', async () => {
      const result = await cli('mcp', 'list', '--url', server.mcpUrl);
      expect(result.code).toBe(1);
      expect(result.stderr).toHaveLength(1);
      expect(result.stderr[0]).toMatch(/^protolink: ToolRuntimeError: /);
    });
  });

  describe('a server that fails to start', () => {
    const loud = [
      '--',
      process.execPath,
      '-e',
      "process.stderr.write('Error: connect failed for postgres://app:hunter2@db'); process.exit(1)",
    ];

    it("keeps the server's stderr out of the error line", async () => {
      const result = await cli('mcp', 'list', ...loud);
      expect(result.code).toBe(1);
      expect(result.stderr).toHaveLength(1);
      expect(result.stderr[0]).toMatch(
        /^protolink: ToolRuntimeError: Could not open a session with MCP server 'stdio:node' \(stdio\): .*The server wrote to stderr; see error\.serverStderr\.$/,
      );
      expect(result.stderr.join('\n')).not.toContain('hunter2');
    });

    it("prints the server's stderr with --verbose", async () => {
      const result = await cli('--verbose', 'mcp', 'list', ...loud);
      expect(result.code).toBe(1);
      expect(result.stderr[0]).not.toContain('hunter2');
      expect(result.stderr).toContain(
        'The MCP server wrote to stderr:\nError: connect failed for postgres://app:hunter2@db',
      );
    });
  });

  it.each([
    [
      'Authorization Bearer sk-hunter2',
      "--header must look like 'Name: value'; the header starting with 'Authorization' does not (its value is not shown).",
    ],
    [
      'sk-hunter2',
      "--header must look like 'Name: value'; the header starting with '<redacted>' does not (its value is not shown).",
    ],
    [
      ':sk-hunter2',
      "--header must look like 'Name: value'; the header starting with '<redacted>' does not (its value is not shown).",
    ],
  ])('never echoes the value of the malformed --header %s', async (header, message) => {
    const result = await cli('mcp', 'list', '--url', 'http://127.0.0.1:1/mcp', '--header', header);
    expect(result.code).toBe(1);
    expect(result.stderr).toEqual([`protolink: ToolInputError: ${message}`]);
  });

  it.each([
    ['neither a command nor --url', ['mcp', 'list'], /Name the MCP server: a command after --/],
    [
      'both a command and --url',
      ['mcp', 'list', '--url', 'http://127.0.0.1:1/mcp', '--', 'node'],
      /either --url <server> or a command after --, not both/,
    ],
    [
      'a bad --transport',
      ['mcp', 'list', '--url', 'http://127.0.0.1:1/mcp', '--transport', 'ws'],
      /--transport must be http or sse, got 'ws'/,
    ],
    [
      'a malformed --header',
      ['mcp', 'list', '--url', 'http://127.0.0.1:1/mcp', '--header', 'nocolon'],
      /--header must look like 'Name: value'/,
    ],
    [
      'a bad --timeout',
      ['mcp', 'list', '--timeout', '0', '--', 'node'],
      /--timeout must be a positive number of seconds/,
    ],
    ['invalid --args', ['mcp', 'call', 'add', '--args', '{', '--', 'node'], /--args is not valid JSON/],
  ])('exits 1 with the fix for %s', async (_case, argv, message) => {
    const result = await cli(...argv);
    expect(result.code).toBe(1);
    expect(result.stderr).toEqual([expect.stringMatching(message)]);
  });
});
