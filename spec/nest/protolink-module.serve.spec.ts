import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { Controller, Get } from '@nestjs/common';
import type { HttpAdapterHost } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { Agent } from '../../lib/agents/agent';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolDefinitionError } from '../../lib/errors/tool-definition-error';
import { ProtolinkHttpServer, ProtolinkModule } from '../../lib/nest/index';
import type { ProtolinkModuleOptions } from '../../lib/nest/index';
import { CapabilityPolicy } from '../../lib/policy/capability-policy';
import { CustomerStore, CustomersModule, ReportsModule } from '../fixtures/nest/crm-app';
import { callBody, connectHttpClient, MCP_HEADERS, rawRequest } from '../fixtures/serve/http-helpers';

const card = { name: 'crm-agent', description: 'CRM tools', url: 'http://127.0.0.1:0' };

@Controller('health')
class HealthController {
  @Get()
  check(): { ok: boolean } {
    return { ok: true };
  }
}

describe('ProtolinkModule', () => {
  const platforms: [string, () => FastifyAdapter | undefined][] = [
    ['Express', () => undefined],
    ['Fastify', () => new FastifyAdapter()],
  ];
  describe.each(platforms)('forRoot with serve on %s', (_platform, makeAdapter) => {
    const apps: INestApplication[] = [];
    const clients: Client[] = [];
    afterEach(async () => {
      await Promise.all(clients.splice(0).map((client) => client.close().catch(() => undefined)));
      await Promise.all(apps.splice(0).map((app) => app.close()));
    });

    async function listen(
      options: ProtolinkModuleOptions,
    ): Promise<{ app: INestApplication; port: number; base: string }> {
      const moduleRef = await Test.createTestingModule({
        imports: [ProtolinkModule.forRoot(options), CustomersModule, ReportsModule],
        controllers: [HealthController],
      }).compile();
      const adapter = makeAdapter();
      const app: INestApplication = adapter
        ? moduleRef.createNestApplication(adapter, { logger: false })
        : moduleRef.createNestApplication({ logger: false });
      apps.push(app);
      await app.listen(0, '127.0.0.1');
      const port = (app.getHttpServer().address() as { port: number }).port;
      return { app, port, base: `http://127.0.0.1:${port}` };
    }

    it("serves the tools over MCP from the application's own server, through the agent's policy", async () => {
      const { app, base } = await listen({
        card,
        policy: new CapabilityPolicy({ 'crm.read': 'allow', 'crm.write': 'deny' }),
        serve: true,
      });
      const client = await connectHttpClient(`${base}/mcp`);
      clients.push(client);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([
        'add_credit',
        'count_customers',
        'lookup_customer',
      ]);
      expect(await client.callTool({ name: 'lookup_customer', arguments: { customer_id: 'c-1' } })).toEqual({
        content: [{ type: 'text', text: JSON.stringify({ name: 'Ada', credit: 10 }) }],
        structuredContent: { name: 'Ada', credit: 10 },
      });
      const denied = await client.callTool({
        name: 'add_credit',
        arguments: { customer_id: 'c-1', amount: 5 },
      });
      expect(denied.isError).toBe(true);
      expect(JSON.stringify(denied.content)).toMatch(/denied/i);
      expect(app.get(CustomerStore).customers.get('c-1')!.credit).toBe(10);
      expect(app.get(ProtolinkHttpServer).sessionCount).toBe(1);
    });

    it('serves the card and leaves the application routes working', async () => {
      const { port, base } = await listen({ card, serve: true });
      const cardResponse = await rawRequest({ port, method: 'GET', path: '/.well-known/agent.json' });
      expect(cardResponse.status).toBe(200);
      expect(cardResponse.json.name).toBe('crm-agent');
      expect(cardResponse.json.url).toBe(base);
      expect(cardResponse.json.skills.map((skill: { id: string }) => skill.id).sort()).toEqual([
        'add_credit',
        'count_customers',
        'lookup_customer',
      ]);
      const health = await rawRequest({ port, method: 'GET', path: '/health' });
      expect(health.status).toBe(200);
      expect(health.json).toEqual({ ok: true });
      expect((await rawRequest({ port, method: 'GET', path: '/missing' })).status).toBe(404);
    });

    it('refuses a foreign Host and Origin (DNS rebinding) before reading anything', async () => {
      const { port } = await listen({ card, serve: true });
      const body = callBody('count_customers', {});
      const foreignHost = await rawRequest({
        port,
        headers: { ...MCP_HEADERS, host: 'attacker.example' },
        body,
      });
      expect(foreignHost.status).toBe(403);
      const foreignOrigin = await rawRequest({
        port,
        headers: { ...MCP_HEADERS, origin: 'http://attacker.example' },
        body,
      });
      expect(foreignOrigin.status).toBe(403);
      expect((await rawRequest({ port, method: 'GET', path: '/health' })).json).toEqual({ ok: true });
    });

    it('serves at a custom path with a token (a body the framework already parsed is used as is)', async () => {
      const { port } = await listen({
        card,
        serve: { path: '/agent/mcp', token: 's3cret', sessionMode: 'stateless', enableJsonResponse: true },
      });
      const body = callBody('count_customers', {});
      const missing = await rawRequest({ port, path: '/agent/mcp', headers: MCP_HEADERS, body });
      expect(missing.status).toBe(401);
      expect(missing.json.error.message).toBe(
        'Unauthorized: send the header "Authorization: Bearer <token>".',
      );
      const called = await rawRequest({
        port,
        path: '/agent/mcp',
        headers: { ...MCP_HEADERS, authorization: 'Bearer s3cret' },
        body,
      });
      expect(called.status).toBe(200);
      expect(called.json.result).toEqual({
        content: [{ type: 'text', text: '1' }],
        structuredContent: { result: 1 },
      });
      expect((await rawRequest({ port, path: '/mcp', headers: MCP_HEADERS, body })).status).toBe(404);
    });

    it('closes its MCP sessions when the application shuts down', async () => {
      const { app, base } = await listen({ card, serve: true });
      const client = await connectHttpClient(`${base}/mcp`);
      clients.push(client);
      const server = app.get(ProtolinkHttpServer);
      expect(server.sessionCount).toBe(1);
      await app.close();
      apps.splice(apps.indexOf(app), 1);
      expect(server.sessionCount).toBe(0);
    });

    it('refuses serve in an application context without an HTTP server', async () => {
      const moduleRef = await Test.createTestingModule({
        imports: [ProtolinkModule.forRoot({ card, serve: true }), CustomersModule],
      }).compile();
      const init = moduleRef.init();
      await expect(init).rejects.toBeInstanceOf(ToolDefinitionError);
      await expect(init).rejects.toThrow(
        /^ProtolinkModule option `serve` needs an HTTP application, and this one has no HTTP server: create it with NestFactory\.create\(AppModule\)/,
      );
      // close() awaits the failed initialization again, so it rejects with the same error.
      await expect(moduleRef.close()).rejects.toBeInstanceOf(ToolDefinitionError);
    });
  });

  describe('forRootAsync with serve', () => {
    it('takes serve from the factory and never passes it to the Agent', async () => {
      const moduleRef = await Test.createTestingModule({
        imports: [
          ProtolinkModule.forRootAsync({
            useFactory: () => ({ card, serve: { sessionMode: 'stateless' as const } }),
          }),
          CustomersModule,
        ],
      }).compile();
      const app = moduleRef.createNestApplication({ logger: false });
      await app.listen(0, '127.0.0.1');
      try {
        const port = (app.getHttpServer().address() as { port: number }).port;
        const response = await rawRequest({
          port,
          headers: MCP_HEADERS,
          body: callBody('lookup_customer', { customer_id: 'c-1' }),
        });
        expect(response.status).toBe(200);
        expect(response.json.result.content[0].text).toBe(JSON.stringify({ name: 'Ada', credit: 10 }));
      } finally {
        await app.close();
      }
    });
  });
});

describe('ProtolinkHttpServer', () => {
  describe('onModuleInit', () => {
    it('refuses serve on a platform other than Express and Fastify, naming the fix', async () => {
      const adapterHost = { httpAdapter: { getType: () => 'koa' } } as unknown as HttpAdapterHost;
      const server = new ProtolinkHttpServer({ card, serve: true }, new Agent({ card }), adapterHost);
      await expect(server.onModuleInit()).rejects.toThrow(ToolDefinitionError);
      await expect(server.onModuleInit()).rejects.toThrow(
        "ProtolinkModule option `serve` supports the Express and Fastify platforms (@nestjs/platform-express, @nestjs/platform-fastify), and this application runs on 'koa'.",
      );
    });

    it('mounts nothing when serve is not set', async () => {
      const adapterHost = { httpAdapter: undefined } as unknown as HttpAdapterHost;
      const server = new ProtolinkHttpServer({ card }, new Agent({ card }), adapterHost);
      await expect(server.onModuleInit()).resolves.toBeUndefined();
      expect(server.sessionCount).toBe(0);
    });
  });
});
