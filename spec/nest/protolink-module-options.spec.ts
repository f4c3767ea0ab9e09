import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Agent } from '../../lib/agents/agent';
import { ToolDefinitionError } from '../../lib/errors/tool-definition-error';
import { ProtolinkHttpServer, ProtolinkModule } from '../../lib/nest/index';
import type {
  ProtolinkModuleAsyncOptions,
  ProtolinkModuleOptions,
  ProtolinkServeOptions,
} from '../../lib/nest/index';
import {
  PROTOLINK_MODULE_ASYNC_OPTION_NAMES,
  PROTOLINK_MODULE_OPTION_NAMES,
  PROTOLINK_SERVE_OPTION_NAMES,
} from '../../lib/nest/protolink-module-options';
import { CapabilityPolicy } from '../../lib/policy/capability-policy';
import { RunContext } from '../../lib/runtime/run-context';
import { CustomersModule } from '../fixtures/nest/crm-app';
import { InMemoryTaskStore } from '../../lib/tasks/in-memory-task-store';

const card = { name: 'crm-agent', description: 'CRM tools', url: 'http://127.0.0.1:0' };

// Required<…>: the compiler refuses these literals if the option types gain or lose an option.
const everyServeOption: Required<ProtolinkServeOptions> = {
  token: 'secret',
  sessionMode: 'stateful',
  sessionIdleTimeoutMs: 60_000,
  maxSessions: 10,
  maxSessionsPerClient: 5,
  maxBodyBytes: 65_536,
  maxConcurrentCallsPerSession: 4,
  maxConcurrentStatelessCalls: 8,
  allowedHosts: ['example.test'],
  allowedOrigins: ['http://example.test'],
  enableJsonResponse: false,
  eventStore: false,
  sseRetryMs: 500,
  maxEventStoreBytesPerSession: 1_000_000,
  maxEventStoreBytes: 2_000_000,
  eventStoreResumeWindowMs: 30_000,
  maxGetStreamsPerSession: 3,
  interactionTimeoutMs: 1_000,
  taskStore: new InMemoryTaskStore(),
  maxTaskTtlMs: 60_000,
  taskStoreLimits: { maxTasksPerOwner: 100 },
  taskPollIntervalMs: 100,
  maxSubscriptionsPerSession: 10,
  buildContext: (info) => new RunContext({ signal: info.signal }),
  onError: () => undefined,
  path: '/tools/mcp',
  cardPath: '/tools/card.json',
  listenHostname: 'localhost',
  publicUrl: 'http://127.0.0.1:3000',
  redis: 'redis://127.0.0.1:6379',
  redisKeyPrefix: 'spec:',
};
const everyOption: Required<ProtolinkModuleOptions> = {
  card,
  transport: 'runtime',
  policy: new CapabilityPolicy(),
  approvalHandler: () => true,
  elicitationHandler: () => ({ action: 'decline' }),
  samplingHandler: () => ({ role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'spec' }),
  skills: 'auto',
  telemetry: { tracing: false },
  tools: [],
  toolsets: [],
  mcpServers: [],
  taskStore: new InMemoryTaskStore(),
  serve: everyServeOption,
};

async function createApp(options: ProtolinkModuleOptions): Promise<INestApplication> {
  const moduleRef = await Test.createTestingModule({
    imports: [ProtolinkModule.forRoot(options), CustomersModule],
  }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  try {
    await app.init();
  } catch (error) {
    await app.close();
    throw error;
  }
  return app;
}

describe('the option names of ProtolinkModule', () => {
  it('list exactly the options of ProtolinkModuleOptions, ProtolinkServeOptions and ProtolinkModuleAsyncOptions', () => {
    expect([...PROTOLINK_MODULE_OPTION_NAMES.names].sort()).toEqual(Object.keys(everyOption).sort());
    expect([...PROTOLINK_SERVE_OPTION_NAMES.names].sort()).toEqual(Object.keys(everyServeOption).sort());
    const everyAsyncOption: Required<ProtolinkModuleAsyncOptions> = {
      imports: [],
      inject: [],
      useFactory: () => ({ card }),
    };
    expect([...PROTOLINK_MODULE_ASYNC_OPTION_NAMES.names].sort()).toEqual(
      Object.keys(everyAsyncOption).sort(),
    );
  });
});

describe('ProtolinkModule', () => {
  describe('forRoot with options that are not known', () => {
    it('serves with every option at once', async () => {
      // Every option but redis, which needs a Redis (spec/nest/protolink-module.redis.spec.ts serves with it),
      // and taskStoreLimits, which bounds the Redis task store only (refused without redis).
      const app = await createApp({
        ...everyOption,
        serve: { ...everyServeOption, redis: undefined, taskStoreLimits: undefined },
      });
      try {
        expect(app.get(Agent).tools.has('lookup_customer')).toBe(true);
        expect(app.get(Agent).taskStore).toBe(everyOption.taskStore);
        expect(app.get(ProtolinkHttpServer).sessionCount).toBe(0);
      } finally {
        await app.close();
      }
    });

    it.each([
      [
        { registry: {} },
        "ProtolinkModule.forRoot() option 'registry' is not known: it is the original's tool registry",
      ],
      [
        { approval_handler: () => true },
        "ProtolinkModule.forRoot() option 'approval_handler' is not known: it is the original's snake_case spelling; options are camelCase, use 'approvalHandler' instead.",
      ],
      [{ serv: true }, "ProtolinkModule.forRoot() option 'serv' is not known; did you mean 'serve'?"],
    ])('refuses %j at bootstrap, naming it', async (extra, message) => {
      const created = createApp({ card, ...extra } as ProtolinkModuleOptions);
      await expect(created).rejects.toThrow(ToolDefinitionError);
      await expect(created).rejects.toThrow(message);
    });

    it.each([
      [
        { port: 3000 },
        "ProtolinkModule serve option 'port' is not known: the Nest application listens on its own port (app.listen(port)); remove it.",
      ],
      [
        { maxConnections: 10 },
        "ProtolinkModule serve option 'maxConnections' is not known: it bounds connections, which the server you run owns: set its maxConnections.",
      ],
      [
        { unknownPaths: 'reject' },
        "option 'unknownPaths' is not known: other paths always go on to the application's own routes",
      ],
      [{ tokn: 'x' }, "ProtolinkModule serve option 'tokn' is not known; did you mean 'token'?"],
    ])('refuses the serve option %j at bootstrap, naming it', async (serve, message) => {
      const created = createApp({ card, serve: serve as ProtolinkServeOptions });
      await expect(created).rejects.toThrow(ToolDefinitionError);
      await expect(created).rejects.toThrow(message);
    });
  });

  describe('forRootAsync with options that are not known', () => {
    it('refuses useClass at once, saying to use useFactory', () => {
      const configure = () =>
        ProtolinkModule.forRootAsync({
          useClass: class {},
          useFactory: () => ({ card }),
        } as ProtolinkModuleAsyncOptions);
      expect(configure).toThrow(ToolDefinitionError);
      expect(configure).toThrow(
        "ProtolinkModule.forRootAsync() option 'useClass' is not known: build the options with useFactory (inject what it needs).",
      );
    });

    it('checks the options the factory builds', async () => {
      const compiled = Test.createTestingModule({
        imports: [
          ProtolinkModule.forRootAsync({
            useFactory: () => ({ card, polcy: null }) as ProtolinkModuleOptions,
          }),
        ],
      }).compile();
      await expect(compiled).rejects.toThrow(
        "ProtolinkModule.forRoot() option 'polcy' is not known; did you mean 'policy'?",
      );
    });
  });
});
