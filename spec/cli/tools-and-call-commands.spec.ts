import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { CliIo } from '../../lib/cli/cli-io';
import { runCli } from '../../lib/cli/run-cli';

const root = join(__dirname, '../..');
const fixtures = join(root, 'spec/fixtures/cli');
const toolsetModule = join(fixtures, 'toolset-module.ts');
const agentModule = join(fixtures, 'agent-module.ts');

function captureIo(): CliIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (text) => stdout.push(text), err: (text) => stderr.push(text) };
}

async function cli(...argv: string[]) {
  const io = captureIo();
  const code = await runCli(argv, io);
  return { code, stdout: io.stdout.join('\n'), stderr: io.stderr };
}

describe('protolink tools', () => {
  it('prints a table of tools, capabilities and tags for a module exporting a toolset class', async () => {
    const result = await cli('tools', toolsetModule);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('tool      capabilities  tags   description');
    expect(result.stdout).toMatch(/transfer\s+ledger\.write\s+money\s+Move money/);
    expect(result.stdout).toContain('2 tools; --json prints their schemas.');
  });

  it('prints schemas with --json', async () => {
    const result = await cli('tools', agentModule, '--json');
    const tools = JSON.parse(result.stdout) as { name: string; inputSchema: { required: string[] } }[];
    expect(tools.map((tool) => tool.name)).toEqual(['add', 'transfer']);
    expect(tools[0].inputSchema.required).toEqual(['a', 'b']);
  });

  it.each([
    [
      'a missing module',
      join(fixtures, 'nope.ts'),
      /Cannot find the module '.*nope\.ts'\. Pass the path of a \.ts or \.js file/,
    ],
    [
      'a module with no tools',
      join(fixtures, 'empty-module.ts'),
      /exports no tools\. Export an Agent, a class with @Tool methods/,
    ],
    [
      'a module that throws',
      join(fixtures, 'broken-module.ts'),
      /failed to load: the module is broken on purpose\. Fix the error/,
    ],
  ])('exits 1 with one line for %s', async (_case, path, message) => {
    const result = await cli('tools', path);
    expect(result.code).toBe(1);
    expect(result.stderr).toHaveLength(1);
    expect(result.stderr[0]).toMatch(/^protolink: ToolInputError: /);
    expect(result.stderr[0]).toMatch(message);
  });
});

describe('protolink call', () => {
  it('calls a tool through an agent and prints the JSON result', async () => {
    const result = await cli('call', toolsetModule, 'add', '--args', '{"a": 2, "b": "3"}');
    expect(result).toEqual({ code: 0, stdout: '5', stderr: [] });
  });

  it('keeps the module policy: an approval-gated call fails closed, naming --yes', async () => {
    const result = await cli('call', agentModule, 'transfer', '--args', '{"amount": 5}');
    expect(result.code).toBe(1);
    expect(result.stderr[0]).toMatch(
      /^protolink: ApprovalRequiredError: .*The tool did not run\. From the command line, pass --yes to approve\.$/,
    );
  });

  it('approves with --yes after printing the request', async () => {
    const result = await cli('call', agentModule, 'transfer', '--args', '{"amount": 5}', '--yes');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ moved: 5 });
    expect(result.stderr).toEqual([
      'approving transfer (--yes): Approval required for capabilities: ledger.write',
    ]);
  });

  it('denies with a --policy given on the command line', async () => {
    const result = await cli(
      'call',
      toolsetModule,
      'transfer',
      '--args',
      '{"amount": 5}',
      '--policy',
      '{"ledger.*": "deny"}',
    );
    expect(result.code).toBe(1);
    expect(result.stderr[0]).toMatch(/^protolink: ActionDeniedError: /);
  });

  it.each([
    [
      'invalid JSON in --args',
      ['--args', '{a: 1}'],
      /ToolInputError: --args is not valid JSON .*Quote it for your shell/,
    ],
    [
      '--args that is not an object',
      ['--args', '[1, 2]'],
      /ToolInputError: --args must be one JSON object of arguments/,
    ],
    ['invalid JSON in --policy', ['--policy', 'deny'], /ToolInputError: --policy is not valid JSON/],
    [
      'a --policy that is not an object',
      ['--policy', '"deny"'],
      /ToolInputError: --policy must be a JSON object of capability rules/,
    ],
    [
      'a bad --timeout',
      ['--timeout', '-1'],
      /ToolInputError: --timeout must be a positive number of seconds/,
    ],
    ['invalid arguments', ['--args', '{"a": "x", "b": 1}'], /ToolValidationError: .*a: /],
  ])('exits 1 with one line for %s', async (_case, options, message) => {
    const result = await cli('call', toolsetModule, 'add', ...options);
    expect(result.code).toBe(1);
    expect(result.stderr).toHaveLength(1);
    expect(result.stderr[0]).toMatch(message);
  });

  it('names the tools that exist for an unknown tool', async () => {
    const result = await cli('call', toolsetModule, 'subtract');
    expect(result.stderr).toEqual([
      "protolink: ToolNotFoundError: Unknown tool 'subtract'. Available tools: add, transfer.",
    ]);
  });

  it('prints no stack trace without --verbose, from a real process', async () => {
    const run = promisify(execFile);
    const failure = run(
      process.execPath,
      [
        '-r',
        'ts-node/register/transpile-only',
        'lib/cli/main.ts',
        'call',
        toolsetModule,
        'add',
        '--args',
        'nope',
      ],
      { cwd: root },
    );
    await expect(failure).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^protolink: ToolInputError: --args is not valid JSON[^\n]*\n$/),
    });
  });
});
