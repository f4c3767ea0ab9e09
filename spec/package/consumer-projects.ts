import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** One consumer project of the packed package: a folder with its own package.json and tsconfig. */
export interface ConsumerProject {
  /** The folder name under the shared install. */
  readonly name: string;
  /** Which compiler checks it: `typescript` (the project's own, 6.x) or `typescript5` (5.9, an npm alias). */
  readonly compiler: 'typescript' | 'typescript5';
  /** Whether its tsconfig lists Node's types (`types: ['node']`); TypeScript 6 no longer adds `@types` by default. */
  readonly nodeTypes: boolean;
  /** Whether it is built and run (its output checked), or only type-checked. */
  readonly run: boolean;
  /** `commonjs` or `module`, for its package.json. */
  readonly type: 'commonjs' | 'module';
  /** Its compiler options. */
  readonly compilerOptions: Record<string, unknown>;
  /** Its source file `src/main.ts`: prints one JSON line the test checks (when it runs). */
  readonly main: string;
}

// The tool module every consumer runs: a decorated toolset with a DTO parameter, a coerced call, and a
// refused one whose error class comes from the package.
const TOOLSET = `
class Order {
  @IsString() item!: string;
  @IsInt() @Min(1) quantity!: number;
}

@Injectable()
class ShopTools {
  @Tool({ name: 'add', description: 'Adds two numbers' })
  add(@Param('a') a: number, @Param('b') b: number): number {
    return a + b;
  }

  @Tool({ name: 'order', description: 'Orders an item' })
  order(@Param('order') order: Order): string {
    return \`\${order.quantity} x \${order.item} (\${order instanceof Order ? 'Order' : typeof order})\`;
  }
}
`;

const CALLS = `
  const sum = await agent.callTool('add', { a: 2, b: '3' });
  const ordered = await agent.callTool('order', { order: { item: 'pear', quantity: '2' } });
  let refused = 'none';
  try {
    await agent.callTool('order', { order: { item: 'pear', quantity: 0 } });
  } catch (error) {
    refused = error instanceof ToolValidationError ? error.code : String(error);
  }
  const toolNames = [...agent.tools.keys()].sort();
`;

const PLAIN_MAIN = (importLine: string, runLine: string) => `import 'reflect-metadata';
import { IsInt, IsString, Min } from 'class-validator';
${importLine}
import type { JsonSchema } from 'protolink/tools';

// No DI here: a no-op stands in for Nest's @Injectable so the toolset reads the same in every consumer.
const Injectable = (): ClassDecorator => () => undefined;
${TOOLSET}
async function main(): Promise<void> {
  const agent = new Agent({
    card: { name: 'shop', description: 'Shop tools', url: 'http://127.0.0.1:0' },
    toolsets: [new ShopTools()],
  });
  ${CALLS}
  const schema: JsonSchema = toOpenAITools(agent)[0]!.function.parameters;
  console.log(JSON.stringify({ sum, ordered, refused, toolNames, schemaType: schema.type }));
}

${runLine}
`;

const NEST_MAIN = `import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { IsInt, IsString, Min } from 'class-validator';
import { Param, Tool, ToolValidationError } from 'protolink';
import { Agent, ProtolinkModule } from 'protolink/nest';
import type { ProtolinkModuleOptions } from 'protolink/nest';
import type { JsonSchema } from 'protolink/tools';
${TOOLSET}
const options: ProtolinkModuleOptions = {
  card: { name: 'shop', description: 'Shop tools', url: 'http://127.0.0.1:0' },
};

@Module({ imports: [ProtolinkModule.forRoot(options)], providers: [ShopTools] })
class AppModule {}

async function main(): Promise<void> {
  const app = await NestFactory.createApplicationContext(AppModule, { logger: false });
  const agent = app.get(Agent);
  ${CALLS}
  const schema: JsonSchema = agent.tools.get('add')!.inputSchema!;
  await app.close();
  console.log(JSON.stringify({ sum, ordered, refused, toolNames, schemaType: schema.type }));
}

void main();
`;

// Nest on Fastify with the module's `serve`: the tools answer over MCP from the application's own server.
const NEST_FASTIFY_MAIN = `import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { IsInt, IsString, Min } from 'class-validator';
import { Param, Tool, ToolValidationError } from 'protolink';
import { Agent, ProtolinkModule } from 'protolink/nest';
import type { JsonSchema } from 'protolink/tools';
${TOOLSET}
@Module({
  imports: [
    ProtolinkModule.forRoot({
      card: { name: 'shop', description: 'Shop tools', url: 'http://127.0.0.1:0' },
      serve: { sessionMode: 'stateless', enableJsonResponse: true },
    }),
  ],
  providers: [ShopTools],
})
class AppModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create<NestFastifyApplication>(AppModule, new FastifyAdapter(), { logger: false });
  await app.listen(0, '127.0.0.1');
  const port = (app.getHttpServer().address() as { port: number }).port;
  const agent = app.get(Agent);
  ${CALLS}
  const served = await fetch(\`http://127.0.0.1:\${port}/mcp\`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'add', arguments: { a: 2, b: '3' } } }),
  });
  const answer = (await served.json()) as { result: { structuredContent: { result: number } } };
  const schema: JsonSchema = agent.tools.get('add')!.inputSchema!;
  await app.close();
  console.log(JSON.stringify({ sum: sum === 5 ? answer.result.structuredContent.result : sum, ordered, refused, toolNames, schemaType: schema.type }));
}

void main();
`;

// Every entry a TypeScript consumer may import, type-checked with no Node types listed and no lib skipping.
const EVERY_ENTRY_MAIN = `import 'reflect-metadata';
import { Agent, Param, Tool } from 'protolink';
import type { JsonSchema } from 'protolink/tools';
import { MCPToolAdapter } from 'protolink/tools/adapters';
import { createAgentRequestHandler } from 'protolink/server';
import { ProtolinkModule } from 'protolink/nest';
import { AgentCard } from 'protolink/agents';
import { fromOpenAI, toOpenAITools } from 'protolink/models';
import type { LLM } from 'protolink/models';
import { calculator } from 'protolink/tools/builtins';
import type { CalculatorResult } from 'protolink/tools/builtins';

class ShopTools {
  @Tool({ name: 'add', description: 'Adds two numbers' })
  add(@Param('a') a: number, @Param('b') b: number): number {
    return a + b;
  }
}

const agent = new Agent({ card: { name: 'shop', description: 'Shop tools', url: 'http://127.0.0.1:0' }, toolsets: [new ShopTools()] });
const schema: JsonSchema | null = agent.tools.get('add')!.inputSchema;
const handler = createAgentRequestHandler(agent);
const card: AgentCard = agent.card;
const declarations = toOpenAITools(agent);
const model: LLM | undefined = undefined;
const exact: CalculatorResult['result'] = '1267650600228229401496703205376';
export const used = [schema, handler.handles, MCPToolAdapter, ProtolinkModule, card, declarations, model, fromOpenAI, calculator(), exact];
`;

/**
 * Compiler options of a strict consumer with the given module settings, checking every declaration file
 * (`skipLibCheck: false`) except under node16, where the MCP SDK's own declarations fail (TS1541; see
 * docs/getting-started.md): there only `protolink`'s files are the subject, as in a project that skips.
 */
function strictOptions(module: string, moduleResolution: string): Record<string, unknown> {
  return {
    module,
    moduleResolution,
    target: 'ES2022',
    strict: true,
    skipLibCheck: module === 'node16',
    experimentalDecorators: true,
    emitDecoratorMetadata: true,
    noEmit: true,
  };
}

/**
 * Type-only consumers: every entry, TypeScript 6 and 5.9, the resolution modes people use (the cjs-node16
 * project checks the root entry under node16 without skipping any declaration file).
 */
const EVERY_ENTRY_PROJECTS: readonly ConsumerProject[] = (
  [
    ['nodenext', 'module', 'nodenext', 'nodenext'],
    ['node16', 'module', 'node16', 'node16'],
    ['bundler', 'module', 'esnext', 'bundler'],
    ['preserve', 'module', 'preserve', 'bundler'],
  ] as const
).flatMap(([name, type, module, resolution]) =>
  (['typescript', 'typescript5'] as const).map((compiler) => ({
    name: `${compiler === 'typescript' ? 'ts6' : 'ts5'}-${name}-every-entry`,
    compiler,
    nodeTypes: false,
    run: false,
    type,
    compilerOptions: strictOptions(module, resolution),
    main: EVERY_ENTRY_MAIN,
  })),
);

/** The consumer setups of the pack-and-consume test. */
export const CONSUMER_PROJECTS: readonly ConsumerProject[] = [
  {
    name: 'cjs-node16',
    compiler: 'typescript',
    nodeTypes: true,
    run: true,
    type: 'commonjs',
    compilerOptions: {
      module: 'node16',
      moduleResolution: 'node16',
      target: 'ES2022',
      strict: true,
      skipLibCheck: false,
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
    },
    main: PLAIN_MAIN(
      "import { Agent, Param, Tool, ToolValidationError, toOpenAITools } from 'protolink';",
      'void main();',
    ),
  },
  {
    name: 'esm-nodenext',
    compiler: 'typescript',
    nodeTypes: true,
    run: true,
    type: 'module',
    compilerOptions: {
      module: 'nodenext',
      moduleResolution: 'nodenext',
      target: 'ES2022',
      strict: true,
      skipLibCheck: false,
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
    },
    main: PLAIN_MAIN(
      "import { Agent, Param, Tool, ToolValidationError, toOpenAITools } from 'protolink';",
      'await main();',
    ),
  },
  {
    // The tsconfig `nest new` writes: commonjs, node10 resolution (implied before TypeScript 6), skipLibCheck.
    name: 'nest-node10',
    compiler: 'typescript',
    nodeTypes: true,
    run: true,
    type: 'commonjs',
    compilerOptions: {
      module: 'commonjs',
      moduleResolution: 'node10',
      ignoreDeprecations: '6.0',
      declaration: true,
      removeComments: true,
      emitDecoratorMetadata: true,
      experimentalDecorators: true,
      allowSyntheticDefaultImports: true,
      target: 'ES2021',
      sourceMap: true,
      skipLibCheck: true,
      strictNullChecks: false,
      noImplicitAny: false,
    },
    main: NEST_MAIN,
  },
  {
    name: 'nest-fastify',
    compiler: 'typescript',
    nodeTypes: true,
    run: true,
    type: 'commonjs',
    compilerOptions: {
      module: 'node16',
      moduleResolution: 'node16',
      target: 'ES2022',
      strict: true,
      skipLibCheck: true,
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
    },
    main: NEST_FASTIFY_MAIN,
  },
  ...EVERY_ENTRY_PROJECTS,
];

/**
 * Writes a consumer project under `root` (which holds the shared `node_modules`): its package.json (with
 * TypeScript as its devDependency), tsconfig.json and `src/main.ts`. Returns the project folder.
 */
export function writeConsumerProject(
  root: string,
  project: ConsumerProject,
  typescriptVersion: string,
): string {
  const folder = join(root, project.name);
  mkdirSync(join(folder, 'src'), { recursive: true });
  const manifest = {
    name: `consumer-${project.name}`,
    private: true,
    type: project.type,
    devDependencies: { typescript: typescriptVersion },
  };
  writeFileSync(join(folder, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const tsconfig = {
    compilerOptions: {
      ...project.compilerOptions,
      rootDir: 'src',
      outDir: 'dist',
      ...(project.nodeTypes ? { types: ['node'] } : {}),
    },
    include: ['src'],
  };
  writeFileSync(join(folder, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`);
  writeFileSync(join(folder, 'src', 'main.ts'), project.main);
  return folder;
}
