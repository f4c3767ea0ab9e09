import type { IncomingMessage, ServerResponse } from 'node:http';
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import type { OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { Agent } from '../agents/agent';
import { ToolDefinitionError } from '../errors/tool-definition-error';
import { assertKnownOptions } from '../runtime/assert-known-options';
import { lazyRequire } from '../runtime/lazy-require';
import type { AgentRequestHandler } from '../server/create-agent-request-handler';
import { PROTOLINK_SERVE_OPTION_NAMES } from './protolink-module-options';
import type { ProtolinkModuleOptions } from './protolink-module-options';
import { PROTOLINK_MODULE_OPTIONS } from './protolink-nest-tokens';

// The server code loads the MCP SDK: paid only by applications that set `serve`.
const loadRequestHandler = lazyRequire((): typeof import('../server/create-agent-request-handler') =>
  require('../server/create-agent-request-handler'),
);

type Middleware = (
  request: IncomingMessage,
  response: ServerResponse,
  next: (error?: unknown) => void,
) => void;

/** What of an Express application the mount uses. */
interface ExpressLike {
  use(middleware: Middleware): unknown;
}

/** What of a Fastify instance the mount uses (no compile-time dependency on fastify). */
interface FastifyLike {
  addHook(
    name: 'onRequest',
    hook: (
      request: { raw: IncomingMessage },
      reply: { raw: ServerResponse; hijack(): void },
      done: (error?: Error) => void,
    ) => void,
  ): unknown;
}

/** An Express middleware: requests for the MCP path or the card are answered, the rest go on. */
function mountOnExpress(application: ExpressLike, handler: AgentRequestHandler): void {
  application.use((request, response, next) => {
    void handler.handle(request, response).then((handled) => {
      if (!handled) next();
    });
  });
}

/**
 * A Fastify `onRequest` hook: for the MCP path and the card the reply is hijacked (Fastify neither parses
 * the body nor answers) and the raw request and response go to the handler, which reads the body itself
 * under its own size limit; every other request goes on to the application's routes untouched.
 */
function mountOnFastify(instance: FastifyLike, handler: AgentRequestHandler): void {
  instance.addHook('onRequest', (request, reply, done) => {
    if (!handler.handles(request.raw)) {
      done();
      return;
    }
    reply.hijack();
    void handler.handle(request.raw, reply.raw);
  });
}

/**
 * Serves the application-wide Agent's tools (MCP) and card from the Nest application's own HTTP server
 * when the module option `serve` is set: an Express middleware or a Fastify `onRequest` hook, mounted at
 * module init, that handles the MCP path and the card path and passes every other request on to the
 * application's routes. Its MCP
 * sessions are closed when the application shuts down. Unexpected errors (a tool's own failure, a failing
 * policy or approver, transport errors) go to Nest's `Logger` (context `Protolink`) unless the `serve`
 * options give an `onError`.
 */
@Injectable()
export class ProtolinkHttpServer implements OnModuleInit, OnModuleDestroy {
  private handler: AgentRequestHandler | undefined;
  private readonly logger = new Logger('Protolink');

  constructor(
    @Inject(PROTOLINK_MODULE_OPTIONS) private readonly options: ProtolinkModuleOptions,
    @Inject(Agent) private readonly agent: Agent,
    @Optional() @Inject(HttpAdapterHost) private readonly adapterHost?: HttpAdapterHost,
  ) {}

  /**
   * Mounts the handler when `serve` is set; with `serve.redis`, waits until Redis is connected, so an
   * application that cannot share its sessions does not start.
   *
   * @throws ToolDefinitionError when the application has no HTTP server (an application context), is on a
   * platform other than Express and Fastify, or `serve` has an option that is not known, naming the fix.
   * @throws SessionStoreUnavailableError when `serve.redis` cannot be reached.
   */
  async onModuleInit(): Promise<void> {
    this.mount();
    const handler = this.handler;
    try {
      await handler?.ready();
    } catch (error) {
      this.handler = undefined;
      await handler?.close();
      throw error;
    }
  }

  private mount(): void {
    const serve = this.options.serve;
    if (serve === undefined || serve === null || (serve as unknown) === false) return;
    if (typeof serve === 'object') assertKnownOptions(serve, PROTOLINK_SERVE_OPTION_NAMES);
    const adapter = this.adapterHost?.httpAdapter;
    if (!adapter) {
      throw new ToolDefinitionError(
        'ProtolinkModule option `serve` needs an HTTP application, and this one has no HTTP server: ' +
          'create it with NestFactory.create(AppModule) (in tests: Test.createTestingModule(...).compile() then ' +
          'createNestApplication()), not NestFactory.createApplicationContext(); or remove `serve` and call ' +
          'agent.start() to serve on a port of its own.',
      );
    }
    const type = typeof adapter.getType === 'function' ? adapter.getType() : 'unknown';
    if (type !== 'express' && type !== 'fastify') {
      throw new ToolDefinitionError(
        `ProtolinkModule option \`serve\` supports the Express and Fastify platforms (@nestjs/platform-express, ` +
          `@nestjs/platform-fastify), and this application runs on '${type}'. Use one of them, or remove ` +
          '`serve` and mount createAgentRequestHandler(agent) from protolink/server yourself (docs/nestjs.md shows ' +
          'the two lines for any Node framework), or call agent.start().',
      );
    }
    const serveOptions = serve === true ? {} : serve;
    const handler = loadRequestHandler().createAgentRequestHandler(this.agent, {
      ...serveOptions,
      onError: serveOptions.onError ?? ((error, toolName) => this.logError(error, toolName)),
    });
    this.handler = handler;
    if (type === 'fastify') mountOnFastify(adapter.getInstance() as FastifyLike, handler);
    else mountOnExpress(adapter.getInstance() as ExpressLike, handler);
  }

  private logError(error: unknown, toolName: string | undefined): void {
    const what =
      toolName === undefined ? 'Serving MCP failed' : `Tool '${toolName}' failed when called over MCP`;
    if (error instanceof Error) this.logger.error(`${what}: ${error.message}`, error.stack);
    else this.logger.error(`${what}: ${String(error)}`);
  }

  /** How many stateful MCP sessions are open (0 when not serving). */
  get sessionCount(): number {
    return this.handler?.sessionCount ?? 0;
  }

  /** Closes every MCP session, so open streams do not hold the HTTP server open at shutdown. */
  async onModuleDestroy(): Promise<void> {
    const handler = this.handler;
    this.handler = undefined;
    await handler?.close();
  }
}
