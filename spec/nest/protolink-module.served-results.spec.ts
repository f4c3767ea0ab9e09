import 'reflect-metadata';
import type { INestApplication, LoggerService } from '@nestjs/common';
import { Injectable } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ProtolinkModule } from '../../lib/nest/index';
import type { ProtolinkModuleOptions } from '../../lib/nest/index';
import { CapabilityPolicy } from '../../lib/policy/capability-policy';
import { MCPToolAdapter } from '../../lib/mcp/client';
import { Param, Tool } from '../../lib/tools/index';
import { connectHttpClient } from '../fixtures/serve/http-helpers';

const card = { name: 'ledger-agent', description: 'Ledger tools', url: 'http://127.0.0.1:0' };

@Injectable()
class LedgerTools {
  @Tool({ name: 'balance', description: 'The balance of an account' })
  balance(@Param('account') account: string): number {
    return account === 'a-1' ? 3 : 0;
  }

  @Tool({ name: 'is_open', description: 'Whether an account is open' })
  isOpen(@Param('account') account: string): boolean {
    return account === 'a-1';
  }

  @Tool({
    name: 'entries',
    description: 'The entries of an account',
    outputSchema: { type: 'array', items: { type: 'number' } },
  })
  entries(@Param('account') account: string): number[] {
    return account === 'a-1' ? [1, 2] : [];
  }

  @Tool({ name: 'owner', description: 'The owner of an account' })
  owner(@Param('account') account: string): string {
    return `owner of ${account}`;
  }

  @Tool({ name: 'reconcile', description: 'Reconciles the ledger' })
  reconcile(): string {
    throw new Error('ledger database unreachable at 10.0.0.7');
  }

  @Tool({ name: 'close_account', description: 'Closes an account', capabilities: ['ledger.write'] })
  closeAccount(@Param('account') account: string): string {
    return `closed ${account}`;
  }
}

/** A Nest logger that keeps what it is told. */
class RecordingLogger implements LoggerService {
  readonly errors: { message: unknown; rest: unknown[] }[] = [];
  log(): void {}
  warn(): void {}
  error(message: unknown, ...rest: unknown[]): void {
    this.errors.push({ message, rest });
  }
}

describe('ProtolinkModule', () => {
  describe('serving tools from a Nest application', () => {
    const apps: INestApplication[] = [];
    const clients: Client[] = [];
    afterEach(async () => {
      await Promise.all(clients.splice(0).map((client) => client.close().catch(() => undefined)));
      await Promise.all(apps.splice(0).map((app) => app.close()));
    });

    async function listen(options: ProtolinkModuleOptions, logger = new RecordingLogger()) {
      const moduleRef = await Test.createTestingModule({
        imports: [ProtolinkModule.forRoot(options)],
        providers: [LedgerTools],
      }).compile();
      const app = moduleRef.createNestApplication({ logger });
      apps.push(app);
      await app.listen(0, '127.0.0.1');
      const port = (app.getHttpServer().address() as { port: number }).port;
      const client = await connectHttpClient(`http://127.0.0.1:${port}/mcp`);
      clients.push(client);
      return { logger, client, mcpUrl: `http://127.0.0.1:${port}/mcp` };
    }

    describe('results', () => {
      it('sends numbers, booleans and arrays as structuredContent { result } plus their JSON text', async () => {
        const { client } = await listen({ card, serve: true });
        const call = (name: string) => client.callTool({ name, arguments: { account: 'a-1' } });
        expect(await call('balance')).toEqual({
          content: [{ type: 'text', text: '3' }],
          structuredContent: { result: 3 },
        });
        expect(await call('is_open')).toEqual({
          content: [{ type: 'text', text: 'true' }],
          structuredContent: { result: true },
        });
        expect(await call('entries')).toEqual({
          content: [{ type: 'text', text: '[1,2]' }],
          structuredContent: { result: [1, 2] },
        });
        expect(await call('owner')).toEqual({ content: [{ type: 'text', text: 'owner of a-1' }] });
      });

      it('advertises output schemas that match what the results carry', async () => {
        const { client } = await listen({ card, serve: true });
        const { tools } = await client.listTools();
        const outputSchemaOf = (name: string) => tools.find((tool) => tool.name === name)!.outputSchema;
        expect(outputSchemaOf('balance')).toEqual({
          type: 'object',
          properties: { result: expect.objectContaining({ type: 'number' }) },
          required: ['result'],
        });
        expect(outputSchemaOf('is_open')).toEqual({
          type: 'object',
          properties: { result: expect.objectContaining({ type: 'boolean' }) },
          required: ['result'],
        });
        expect(outputSchemaOf('entries')).toEqual({
          type: 'object',
          properties: { result: expect.objectContaining({ type: 'array', items: { type: 'number' } }) },
          required: ['result'],
        });
        expect(outputSchemaOf('owner')).toBeUndefined();
      });

      it('gives an MCPToolAdapter caller the original values back', async () => {
        const { mcpUrl } = await listen({ card, serve: true });
        const adapter = new MCPToolAdapter({ transport: 'http', url: mcpUrl });
        try {
          expect(await adapter.getCallable('balance')({ account: 'a-1' })).toBe(3);
          expect(await adapter.getCallable('balance')({ account: 'none' })).toBe(0);
          expect(await adapter.getCallable('is_open')({ account: 'none' })).toBe(false);
          expect(await adapter.getCallable('entries')({ account: 'a-1' })).toEqual([1, 2]);
          expect(await adapter.getCallable('owner')({ account: 'a-1' })).toBe('owner of a-1');
        } finally {
          await adapter.close();
        }
      });
    });

    describe('errors', () => {
      it("logs a tool's own failure to Nest's Logger, naming the tool, and answers the client generically", async () => {
        const { client, logger } = await listen({ card, serve: true });
        const result = await client.callTool({ name: 'reconcile', arguments: {} });
        expect(result.isError).toBe(true);
        expect(JSON.stringify(result.content)).not.toContain('10.0.0.7');
        expect(logger.errors).toHaveLength(1);
        expect(logger.errors[0]!.message).toBe(
          "Tool 'reconcile' failed when called over MCP: ledger database unreachable at 10.0.0.7",
        );
        expect(logger.errors[0]!.rest[0]).toMatch(/^Error: ledger database unreachable[\s\S]*reconcile/);
        expect(logger.errors[0]!.rest).toContain('Protolink');
      });

      it('calls the serve option onError instead of the Logger when one is given', async () => {
        const seen: [string, string | undefined][] = [];
        const { client, logger } = await listen({
          card,
          serve: { onError: (error, toolName) => seen.push([(error as Error).message, toolName]) },
        });
        await client.callTool({ name: 'reconcile', arguments: {} });
        expect(seen).toEqual([['ledger database unreachable at 10.0.0.7', 'reconcile']]);
        expect(logger.errors).toEqual([]);
      });

      it('says a refused approval was refused, not that approval is required', async () => {
        const { client, logger } = await listen({
          card,
          policy: new CapabilityPolicy({ 'ledger.write': 'require_approval' }),
          approvalHandler: () => false,
          serve: true,
        });
        const result = await client.callTool({ name: 'close_account', arguments: { account: 'a-1' } });
        expect(result.isError).toBe(true);
        expect(result.content).toEqual([
          {
            type: 'text',
            text: "Action 'close_account' denied: the approver refused it (no reason given). The tool did not run.",
          },
        ]);
        expect(JSON.stringify(result.content)).not.toMatch(/approval required/i);
        expect(logger.errors).toEqual([]);
      });

      it('still says approval is required when no approver is configured', async () => {
        const { client } = await listen({
          card,
          policy: new CapabilityPolicy({ 'ledger.write': 'require_approval' }),
          serve: true,
        });
        const result = await client.callTool({ name: 'close_account', arguments: { account: 'a-1' } });
        expect(result.isError).toBe(true);
        expect(JSON.stringify(result.content)).toMatch(
          /requires approval .* no approval handler is configured/,
        );
      });
    });
  });
});
