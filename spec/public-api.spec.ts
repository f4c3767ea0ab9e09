import 'reflect-metadata';
import { execFile } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as protolink from '../lib/index';
import * as tools from '../lib/tools/index';
import * as adapters from '../lib/mcp/client';
import * as nest from '../lib/nest/index';
import * as server from '../lib/server/index';
import * as agents from '../lib/agents/index';
import * as models from '../lib/models/index';
import * as builtins from '../lib/builtins/index';

const root = join(__dirname, '..');

/** Every .ts file under a folder. */
function listSources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? listSources(join(folder, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(folder, entry.name)]
        : [],
  );
}

/** The names SPEC.md writes in `code`, by entry point: public API that must never disappear or move. */
const SPEC_NAMES = {
  protolink: [
    'Agent',
    'AgentCard',
    'AgentSkill',
    'CapabilityPolicy',
    'PolicyDecision',
    'ApprovalRequest',
    'ApprovalDecision',
    'RunAction',
    'RunContext',
    'ProtolinkError',
    'ToolInputError',
    'ToolValidationError',
    'ToolNotFoundError',
    'UnsafeUrlError',
    'ToolRuntimeError',
    'ToolDefinitionError',
    'ActionPolicyError',
    'ActionDeniedError',
    'ApprovalRequiredError',
    'ToolCancelledError',
    'BudgetExceededError',
    'toOpenAITools',
    'toAnthropicTools',
    'toGeminiTools',
    'Resource',
    'ResourceTemplate',
    'Prompt',
  ],
  tools: [
    'NativeTool',
    'Tool',
    'Param',
    'Context',
    'Toolset',
    'scanTools',
    'ToolRegistry',
    'classToJsonSchema',
    'normalizeSchema',
    'inferInputSchema',
    'inferOutputSchema',
    'validateToolArgs',
    'loadSchemaManifest',
    'webSearch',
    'fetchUrl',
    'calculator',
    'currentDatetime',
  ],
  adapters: ['MCPToolAdapter'],
  nest: ['ProtolinkModule', 'InjectAgent'],
  server: ['startAgentServer', 'serveStdio', 'createMcpServer'],
  // The original's modules (SPEC §12): protolink.agents, protolink.models, protolink.tools.builtins.
  agents: ['Agent', 'AgentCard', 'AgentSkill'],
  models: [
    'AgentCard',
    'fromOpenAI',
    'fromAnthropic',
    'fromGemini',
    'toOpenAITools',
    'toAnthropicTools',
    'toGeminiTools',
    'OpenAIChatLLM',
    'OpenAIResponsesLLM',
    'AnthropicLLM',
    'GeminiLLM',
    'OpenAICompatibleLLM',
  ],
  builtins: ['webSearch', 'fetchUrl', 'calculator', 'currentDatetime'],
};

const SPEC_METHODS: [string, Function, string[]][] = [
  [
    'Agent',
    protolink.Agent,
    [
      'addTool',
      'addToolset',
      'tool',
      'removeTool',
      'getTool',
      'callTool',
      'callToolInContext',
      'readResource',
      'getPrompt',
      'notifyResourceUpdated',
      'toDict',
      'toYAML',
      'start',
      'stop',
      'on',
      'infer',
    ],
  ],
  ['NativeTool', tools.NativeTool, ['validateArgs', 'call', 'prepareAction']],
  ['ToolRegistry', tools.ToolRegistry, ['register', 'registerAll', 'get', 'has', 'list', 'remove']],
  ['RunAction', protolink.RunAction, ['withArtifacts', 'withCapabilities', 'withPayload', 'toDict']],
  ['RunContext', protolink.RunContext, ['cancel', 'child', 'toDict']],
  ['CapabilityPolicy', protolink.CapabilityPolicy, ['evaluate']],
  [
    'MCPToolAdapter',
    adapters.MCPToolAdapter,
    ['listTools', 'getTool', 'getTools', 'getCallable', 'wrapTool', 'printTools', 'close', 'acceptChanges'],
  ],
];

describe('the public API of SPEC.md', () => {
  it.each([
    ['protolink', protolink, SPEC_NAMES.protolink],
    ['protolink (re-exports protolink/tools)', protolink, SPEC_NAMES.tools],
    ['protolink/tools', tools, SPEC_NAMES.tools],
    ['protolink/tools/adapters', adapters, SPEC_NAMES.adapters],
    ['protolink/nest', nest, SPEC_NAMES.nest],
    ['protolink/server', server, SPEC_NAMES.server],
    ['protolink/agents', agents, SPEC_NAMES.agents],
    ['protolink/models', models, SPEC_NAMES.models],
    ['protolink/tools/builtins', builtins, SPEC_NAMES.builtins],
  ])('%s exports every name', (_entry, exports, names) => {
    const missing = names.filter((name) => typeof (exports as Record<string, unknown>)[name] !== 'function');
    expect(missing).toEqual([]);
  });

  it.each(SPEC_METHODS)('%s has every method', (_name, target, methods) => {
    const missing = methods.filter(
      (method) => typeof (target.prototype as Record<string, unknown>)[method] !== 'function',
    );
    expect(missing).toEqual([]);
  });

  it('has the static restore methods and the getters the spec names', () => {
    expect(typeof protolink.Agent.fromDict).toBe('function');
    expect(typeof protolink.Agent.fromYAML).toBe('function');
    expect(typeof protolink.RunAction.fromDict).toBe('function');
    expect(typeof protolink.RunContext.fromDict).toBe('function');
    const context = new protolink.RunContext({});
    expect([context.canceled, context.cancelReason ?? null, context.signal instanceof AbortSignal]).toEqual([
      false,
      null,
      true,
    ]);
    expect(
      typeof (adapters.MCPToolAdapter.prototype as unknown as Record<symbol, unknown>)[Symbol.asyncDispose],
    ).toBe('function');
  });

  it.each([
    ['protolink/agents', agents],
    ['protolink/models', models],
    ['protolink/tools/builtins', builtins],
  ])('%s exports the very values protolink exports, under the same names', (_entry, exports) => {
    const entries = Object.entries(exports as Record<string, unknown>);
    expect(entries.length).toBeGreaterThan(2);
    const different = entries
      .filter(([name, value]) => (protolink as Record<string, unknown>)[name] !== value)
      .map(([name]) => name);
    expect(different).toEqual([]);
  });

  it('keeps re-exporting every built-in from protolink/tools', () => {
    const missing = Object.entries(builtins)
      .filter(([name, value]) => (tools as Record<string, unknown>)[name] !== value)
      .map(([name]) => name);
    expect(missing).toEqual([]);
  });

  it('keeps lib/tools below lib/builtins: only its entry file imports the built-ins', () => {
    const offenders = listSources(join(root, 'lib/tools')).filter(
      (file) =>
        file !== join(root, 'lib/tools/index.ts') &&
        /from '(\.\.\/)+builtins\//.test(readFileSync(file, 'utf8')),
    );
    expect(offenders).toEqual([]);
    expect(readFileSync(join(root, 'lib/tools/index.ts'), 'utf8')).toMatch(/from '\.\.\/builtins\//);
  });

  it('loads neither the MCP SDK nor axios nor htmlparser2 when agents, models or builtins are imported', async () => {
    // One fresh process requires the entries one after another and lists, after each, the heavy modules
    // loaded so far: the first entry that pulls one in shows up with it.
    const heavy = /node_modules[\\/](@modelcontextprotocol[\\/]sdk|axios|htmlparser2)[\\/]/;
    const entries = ['lib/builtins/index.ts', 'lib/models/index.ts', 'lib/agents/index.ts'];
    const script =
      "require('reflect-metadata'); " +
      `console.log(JSON.stringify(${JSON.stringify(entries)}.map((entry) => { ` +
      `const names = Object.keys(require('./' + entry)).length; ` +
      `return { entry, names, heavy: Object.keys(require.cache).filter((path) => ${heavy}.test(path)) }; })))`;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', '-e', script],
      { cwd: root },
    );
    const loaded = JSON.parse(stdout.trim()) as { entry: string; names: number; heavy: string[] }[];
    expect(loaded.map(({ entry, heavy: found }) => ({ entry, heavy: found }))).toEqual(
      entries.map((entry) => ({ entry, heavy: [] })),
    );
    expect(loaded.every(({ names }) => names > 0)).toBe(true);
  });

  it('keeps the protolink entry free of the MCP SDK and NestJS', () => {
    const statements = readFileSync(join(root, 'lib/index.ts'), 'utf8').split(';');
    const valueImports = statements.filter(
      (statement) =>
        !/^\s*(\/\/[^\n]*\n\s*)*export type /.test(statement) &&
        /from '\.\/(nest|server|tools\/adapters)\//.test(statement),
    );
    expect(valueImports).toEqual([]);
  });

  it.each([
    ['protolink/ai-sdk', '../lib/ai-sdk/index', 'toAISDKTools'],
    ['protolink/langchain', '../lib/langchain/index', 'toLangChainTools'],
    ['protolink/openai-agents', '../lib/openai-agents/index', 'toOpenAIAgentsTools'],
  ])('%s exports its bridge', async (_entry, path, name) => {
    const bridge = (await import(path)) as Record<string, unknown>;
    expect(typeof bridge[name]).toBe('function');
    expect(typeof (protolink.Agent.prototype as unknown as Record<string, unknown>).checkPolicy).toBe(
      'function',
    );
  });

  it('never loads a framework when protolink is imported, and keeps framework imports inside the bridges', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        '-r',
        'ts-node/register/transpile-only',
        '-e',
        "require('reflect-metadata'); require('./lib/index.ts'); console.log(JSON.stringify(Object.keys(require.cache).filter((path) => /node_modules[\\/](ai|langchain|@langchain|@openai|@ai-sdk)[\\/]/.test(path))))",
      ],
      { cwd: root },
    );
    expect(JSON.parse(stdout.trim())).toEqual([]);
    const frameworkImport = /from '(ai|ai\/[^']*|langchain|@langchain\/[^']*|@openai\/agents[^']*)'/;
    const offenders = listSources(join(root, 'lib')).filter(
      (file) =>
        !/[\\/]lib[\\/](ai-sdk|langchain|openai-agents)[\\/]/.test(file) &&
        frameworkImport.test(readFileSync(file, 'utf8')),
    );
    expect(offenders).toEqual([]);
  });

  it('never loads protolink/redis nor the redis client when protolink or protolink/server is imported', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        '-r',
        'ts-node/register/transpile-only',
        '-e',
        "require('reflect-metadata'); require('./lib/index.ts'); require('./lib/server/index.ts'); console.log(JSON.stringify(Object.keys(require.cache).filter((path) => /node_modules[\\/](redis|@redis)[\\/]|[\\/]lib[\\/]redis[\\/]/.test(path))))",
      ],
      { cwd: root },
    );
    expect(JSON.parse(stdout.trim())).toEqual([]);
    const offenders = listSources(join(root, 'lib')).filter(
      (file) =>
        !/[\\/]lib[\\/]redis[\\/]/.test(file) &&
        // A type-only import is erased from the JavaScript: it loads nothing.
        /from '(redis|@redis\/[^']*)'|from '\.\.?\/(\.\.\/)*redis\//.test(
          readFileSync(file, 'utf8').replace(/^import type [^;]*;/gm, ''),
        ),
    );
    expect(offenders).toEqual([]);
  });

  it('maps every package.json export to the built file of its entry', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      exports: Record<string, { types: string; default: string } | string>;
      bin: Record<string, string>;
    };
    const expected: Record<string, string> = {
      '.': 'lib/index',
      './tools': 'lib/tools/index',
      './tools/adapters': 'lib/mcp/client/index',
      './tools/builtins': 'lib/builtins/index',
      './agents': 'lib/agents/index',
      './models': 'lib/models/index',
      './nest': 'lib/nest/index',
      './server': 'lib/server/index',
      './ai-sdk': 'lib/ai-sdk/index',
      './langchain': 'lib/langchain/index',
      './openai-agents': 'lib/openai-agents/index',
      './redis': 'lib/redis/index',
    };
    for (const [subpath, source] of Object.entries(expected)) {
      expect(manifest.exports[subpath]).toEqual({
        types: `./dist/${source}.d.ts`,
        default: `./dist/${source}.js`,
      });
      expect(() => readFileSync(join(root, `${source}.ts`))).not.toThrow();
    }
    expect(manifest.bin.protolink).toBe('dist/lib/cli/main.js');
  });
});
