import 'reflect-metadata';
import { Injectable, Module, Scope } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Agent } from '../../lib/agents/agent';
import { ActionDeniedError } from '../../lib/errors/action-denied-error';
import { ApprovalRequiredError } from '../../lib/errors/approval-required-error';
import { ToolDefinitionError } from '../../lib/errors/tool-definition-error';
import { ToolValidationError } from '../../lib/errors/tool-validation-error';
import { InjectAgent, ProtolinkExplorer, ProtolinkModule } from '../../lib/nest/index';
import type { ApprovalRequest } from '../../lib/policy/approval-request';
import { CapabilityPolicy } from '../../lib/policy/capability-policy';
import { Param, Tool } from '../../lib/tools/index';
import { CustomerStore, CustomersModule, ReportsModule } from '../fixtures/nest/crm-app';

const card = { name: 'crm-agent', description: 'CRM tools', url: 'http://127.0.0.1:0' };

async function bootApp(options: Parameters<typeof ProtolinkModule.forRoot>[0], extra: Function[] = []) {
  const moduleRef = await Test.createTestingModule({
    imports: [ProtolinkModule.forRoot(options), CustomersModule, ReportsModule],
    providers: extra as never[],
  }).compile();
  await moduleRef.init();
  return moduleRef;
}

describe('ProtolinkModule', () => {
  describe('forRoot', () => {
    it('discovers the tools of providers in several modules and registers them on one injectable Agent', async () => {
      const moduleRef = await bootApp({ card });
      const agent = moduleRef.get(Agent);
      expect([...agent.tools.keys()].sort()).toEqual(['add_credit', 'count_customers', 'lookup_customer']);
      expect(
        moduleRef
          .get(ProtolinkExplorer)
          .tools.map((found) => `${found.provider}.${found.methodName}`)
          .sort(),
      ).toEqual(['CustomerTools.addCredit', 'CustomerTools.lookup', 'ReportTools.count']);
      expect(agent.card.skills.map((skill) => skill.id).sort()).toEqual([
        'add_credit',
        'count_customers',
        'lookup_customer',
      ]);
      await moduleRef.close();
    });

    it('discovers the tools of useFactory, useValue and useExisting providers, each instance once', async () => {
      class FactoryTools {
        constructor(private readonly base: number) {}
        @Tool({ name: 'from_factory', description: 'Made by a factory' })
        fromFactory(@Param('x', { type: 'number' }) x: number): number {
          return x + this.base;
        }
      }
      class ValueTools {
        @Tool({ name: 'from_value', description: 'Given as a value' })
        fromValue(@Param('x', { type: 'number' }) x: number): number {
          return x * 2;
        }
      }
      const moduleRef = await Test.createTestingModule({
        imports: [ProtolinkModule.forRoot({ card })],
        providers: [
          { provide: 'BASE', useValue: 100 },
          { provide: 'CONFIG', useValue: { plain: true } },
          { provide: FactoryTools, useFactory: (base: number) => new FactoryTools(base), inject: ['BASE'] },
          { provide: 'FACTORY_ALIAS', useExisting: FactoryTools },
          { provide: 'VALUE_TOOLS', useValue: new ValueTools() },
        ],
      }).compile();
      await moduleRef.init();
      try {
        const agent = moduleRef.get(Agent);
        expect([...agent.tools.keys()].sort()).toEqual(['from_factory', 'from_value']);
        expect(
          moduleRef
            .get(ProtolinkExplorer)
            .tools.map((found) => `${found.provider}.${found.methodName}`)
            .sort(),
        ).toEqual(['FactoryTools.fromFactory', 'ValueTools.fromValue']);
        expect(await agent.callTool('from_factory', { x: 1 })).toBe(101);
        expect(await agent.callTool('from_value', { x: 4 })).toBe(8);
      } finally {
        await moduleRef.close();
      }
    });

    it('runs tools on the DI-constructed instances, so injected dependencies work', async () => {
      const moduleRef = await bootApp({ card });
      const agent = moduleRef.get(Agent);
      expect(await agent.callTool('lookup_customer', { customer_id: 'c-1' })).toEqual({
        name: 'Ada',
        credit: 10,
      });
      expect(await agent.callTool('add_credit', { customer_id: 'c-1', amount: '5' })).toBe(15);
      expect(moduleRef.get(CustomerStore).customers.get('c-1')!.credit).toBe(15);
      expect(await agent.callTool('count_customers')).toBe(1);
      await expect(agent.callTool('add_credit', { customer_id: 'c-1', amount: 0 })).rejects.toBeInstanceOf(
        ToolValidationError,
      );
      await moduleRef.close();
    });

    it('applies the policy and approval handler given in the module options', async () => {
      const requests: ApprovalRequest[] = [];
      const moduleRef = await bootApp({
        card,
        policy: new CapabilityPolicy(
          { 'crm.read': 'allow', 'crm.write': 'require_approval' },
          { defaultEffect: 'deny' },
        ),
        approvalHandler: (request) => {
          requests.push(request);
          return (request.action.payload.arguments as { amount: number }).amount < 100;
        },
      });
      const agent = moduleRef.get(Agent);
      expect(await agent.callTool('add_credit', { customer_id: 'c-1', amount: 5 })).toBe(15);
      await expect(agent.callTool('add_credit', { customer_id: 'c-1', amount: 500 })).rejects.toBeInstanceOf(
        ActionDeniedError,
      );
      expect(requests.map((request) => request.action.name)).toEqual(['add_credit', 'add_credit']);
      expect(moduleRef.get(CustomerStore).customers.get('c-1')!.credit).toBe(15);
      // count_customers declares no capability: always allowed even under default deny.
      expect(await agent.callTool('count_customers')).toBe(1);
      await moduleRef.close();
    });

    it('fails closed without an approval handler', async () => {
      const moduleRef = await bootApp({ card, policy: new CapabilityPolicy({ 'crm.write': 'ask' }) });
      await expect(
        moduleRef.get(Agent).callTool('add_credit', { customer_id: 'c-1', amount: 1 }),
      ).rejects.toBeInstanceOf(ApprovalRequiredError);
      expect(moduleRef.get(CustomerStore).customers.get('c-1')!.credit).toBe(10);
      await moduleRef.close();
    });

    it('lets services inject the Agent by class and with @InjectAgent()', async () => {
      @Injectable()
      class Assistant {
        constructor(@InjectAgent() readonly agent: Agent) {}
      }
      const moduleRef = await bootApp({ card }, [Assistant]);
      expect(moduleRef.get(Assistant).agent).toBe(moduleRef.get(Agent));
      await moduleRef.close();
    });
  });

  describe('forRootAsync', () => {
    it('builds the options with a factory that injects configuration', async () => {
      const CONFIG = Symbol('config');
      @Module({
        providers: [{ provide: CONFIG, useValue: { agentName: 'configured', readOnly: true } }],
        exports: [CONFIG],
      })
      class ConfigModule {}
      const moduleRef = await Test.createTestingModule({
        imports: [
          ProtolinkModule.forRootAsync({
            imports: [ConfigModule],
            inject: [CONFIG],
            useFactory: async (config: { agentName: string; readOnly: boolean }) => ({
              card: { ...card, name: config.agentName },
              policy: new CapabilityPolicy({ 'crm.write': config.readOnly ? 'deny' : 'allow' }),
            }),
          }),
          CustomersModule,
        ],
      }).compile();
      await moduleRef.init();
      const agent = moduleRef.get(Agent);
      expect(agent.name).toBe('configured');
      await expect(agent.callTool('add_credit', { customer_id: 'c-1', amount: 1 })).rejects.toBeInstanceOf(
        ActionDeniedError,
      );
      await moduleRef.close();
    });
  });

  describe('bootstrap errors', () => {
    async function bootWith(providers: Function[]): Promise<unknown> {
      const moduleRef = await Test.createTestingModule({
        imports: [ProtolinkModule.forRoot({ card })],
        providers: providers as never[],
      }).compile();
      return moduleRef.init().then(
        () => undefined,
        (error: unknown) => error,
      );
    }

    it('rejects two providers declaring the same tool name, naming both', async () => {
      @Injectable()
      class FirstTools {
        @Tool({ name: 'ping', description: 'Ping' })
        ping(): string {
          return 'first';
        }
      }
      @Injectable()
      class SecondTools {
        @Tool({ name: 'ping', description: 'Ping again' })
        pingAgain(): string {
          return 'second';
        }
      }
      const error = await bootWith([FirstTools, SecondTools]);
      expect(error).toBeInstanceOf(ToolDefinitionError);
      expect((error as Error).message).toBe(
        "Two Nest providers declare the tool 'ping': FirstTools.ping and SecondTools.pingAgain. Tool names must be unique in one agent: rename one of them in its @Tool({ name }).",
      );
    });

    it('rejects a @Tool on a request-scoped provider, naming the provider and method', async () => {
      @Injectable({ scope: Scope.REQUEST })
      class PerRequestTools {
        @Tool({ name: 'whoami', description: 'Who is asking' })
        whoAmI(): string {
          return 'someone';
        }
      }
      const error = await bootWith([PerRequestTools]);
      expect(error).toBeInstanceOf(ToolDefinitionError);
      expect((error as Error).message).toMatch(
        /^PerRequestTools\.whoAmI is a @Tool on a request-scoped provider\. .*must be a singleton/,
      );
    });

    it('rejects a @Tool on a transient provider', async () => {
      @Injectable({ scope: Scope.TRANSIENT })
      class TransientTools {
        @Tool({ name: 'fresh', description: 'Fresh' })
        fresh(): string {
          return 'new';
        }
      }
      expect(((await bootWith([TransientTools])) as Error).message).toMatch(
        /^TransientTools\.fresh is a @Tool on a transient provider/,
      );
    });

    it('rejects a DTO parameter whose type metadata is missing, naming the provider', async () => {
      class Untyped {
        lookup(query: unknown): unknown {
          return query;
        }
      }
      // Decorators applied by hand, as a compiler without emitDecoratorMetadata would leave them.
      Tool({ name: 'untyped_lookup', description: 'Lookup' })(
        Untyped.prototype,
        'lookup',
        Object.getOwnPropertyDescriptor(Untyped.prototype, 'lookup')!,
      );
      Param()(Untyped.prototype, 'lookup', 0);
      Injectable()(Untyped);
      const error = await bootWith([Untyped]);
      expect(error).toBeInstanceOf(ToolDefinitionError);
      expect((error as Error).message).toMatch(/^Nest provider Untyped: .*Untyped\.lookup/);
    });
  });
});
