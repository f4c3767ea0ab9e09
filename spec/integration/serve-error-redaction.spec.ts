import 'reflect-metadata';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ActionPolicyError } from '../../lib/errors/action-policy-error';
import type { AgentServerHandle } from '../../lib/agents/agent-server-options';
import { startAgentServer } from '../../lib/server/start-agent-server';
import { ERROR_META_KEY } from '../../lib/mcp/wire/to-call-tool-result';
import { connectHttpClient } from '../fixtures/serve/http-helpers';
import { createLeakyAgent, LEAKED_SECRET } from '../fixtures/serve/leaky-agent';

const ROOT = join(__dirname, '..', '..');
const FIXTURES = join(ROOT, 'spec', 'fixtures', 'serve');

const FAILING_TOOLS = [
  'policy_throws',
  'policy_rejects',
  'approver_throws',
  'approver_rejects',
  'approver_answers_wrongly',
];

function genericFailure(toolName: string) {
  return {
    isError: true,
    content: [
      {
        type: 'text',
        text: `Tool '${toolName}' did not run: the server could not authorize the call (its policy or approval step failed); the server's log has the details.`,
      },
    ],
    _meta: {
      [ERROR_META_KEY]: {
        name: 'ActionPolicyError',
        code: 'ACTION_POLICY',
        message: 'authorization failed',
        toolName,
      },
    },
  };
}

async function expectRedacted(client: Client): Promise<void> {
  for (const name of FAILING_TOOLS) {
    const result = await client.callTool({ name, arguments: { text: 'x' } });
    expect(result).toEqual(genericFailure(name));
    expect(JSON.stringify(result)).not.toContain('hunter2');
  }
  // Deliberate decisions still reach the caller with their reasons.
  const denied = await client.callTool({ name: 'policy_denies', arguments: { text: 'x' } });
  expect(denied.isError).toBe(true);
  expect(denied.content).toEqual([
    { type: 'text', text: "Action 'policy_denies' denied: closed on weekends" },
  ]);
  expect((denied._meta as Record<string, { code: string }>)[ERROR_META_KEY].code).toBe('ACTION_DENIED');
  const refused = await client.callTool({ name: 'approver_denies', arguments: { text: 'x' } });
  expect((refused._meta as Record<string, { code: string }>)[ERROR_META_KEY].code).toBe('ACTION_DENIED');
  const invalid = await client.callTool({ name: 'echo', arguments: { text: 5 } });
  expect((invalid._meta as Record<string, { code: string }>)[ERROR_META_KEY].code).toBe('TOOL_VALIDATION');
  expect(await client.callTool({ name: 'echo', arguments: { text: 'ok' } })).toEqual({
    content: [{ type: 'text', text: 'ok' }],
  });
}

describe('served errors of policies and approval handlers', () => {
  describe('over HTTP', () => {
    let server: AgentServerHandle;
    const reported: unknown[] = [];

    beforeAll(async () => {
      server = await startAgentServer(createLeakyAgent(), { onError: (error) => reported.push(error) });
    });
    afterAll(() => server.close());

    it.each(['stateful', 'stateless'] as const)(
      'gives %s clients a generic message and onError the details',
      async (sessionMode) => {
        reported.length = 0;
        const handle =
          sessionMode === 'stateful'
            ? server
            : await startAgentServer(createLeakyAgent(), {
                sessionMode,
                onError: (error) => reported.push(error),
              });
        const client = await connectHttpClient(handle.mcpUrl);
        try {
          await expectRedacted(client);
        } finally {
          await client.close();
          if (handle !== server) await handle.close();
        }
        expect(reported).toHaveLength(FAILING_TOOLS.length);
        for (const error of reported) expect(error).toBeInstanceOf(ActionPolicyError);
        const messages = reported.map((error) => (error as Error).message);
        expect(messages.filter((message) => message.includes('hunter2'))).toHaveLength(4);
        expect(messages).toContainEqual(
          expect.stringMatching(/^The approval handler returned string for tool 'approver_answers_wrongly'/),
        );
      },
    );
  });

  describe('over stdio (protolink serve --stdio in a real process)', () => {
    it('gives the client a generic message and prints the details on the server stderr', async () => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [
          '-r',
          'ts-node/register/transpile-only',
          join(FIXTURES, 'run-serve-cli.ts'),
          'serve',
          join(FIXTURES, 'leaky-agent-module.ts'),
          '--stdio',
        ],
        cwd: ROOT,
        stderr: 'pipe',
      });
      let stderr = '';
      transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      const client = new Client({ name: 'spec-leaky-stdio', version: '1.0.0' });
      await client.connect(transport);
      try {
        await expectRedacted(client);
      } finally {
        await client.close();
      }
      expect(stderr).toContain(
        `protolink serve: ActionPolicyError: The approval handler failed for tool 'approver_throws' (approval db: ${LEAKED_SECRET}); the tool did not run.`,
      );
      expect(stderr).toContain(
        `protolink serve: ActionPolicyError: Policy 'leaky_policy' failed while evaluating tool 'policy_throws' (policy store down: ${LEAKED_SECRET}); the tool did not run.`,
      );
    }, 60_000);
  });
});
