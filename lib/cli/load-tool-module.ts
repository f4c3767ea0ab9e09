// A module's decorators record their design types through Reflect.metadata: it must exist before they run.
import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { basename, extname, resolve } from 'node:path';
import { Agent } from '../agents/agent';
import { ToolInputError } from '../errors/tool-input-error';
import type { Policy } from '../policy/policy';
import type { BaseTool } from '../tools/base-tool';
import { hasCatalogMethods } from '../resources/has-catalog-methods';
import { buildToolDefinitions } from '../tools/metadata/build-tool-definitions';

/** Options of {@link loadToolModule}. */
export interface LoadToolModuleOptions {
  /** The policy of an agent built from toolsets (an exported agent keeps its own unless this is given). */
  policy?: Policy;
}

/**
 * Loads a module for the CLI and returns the agent it describes: an exported `Agent` (the `agent` or default
 * export first), or a new agent holding its exported tools, toolset instances and toolset classes (constructed
 * without arguments). TypeScript files are compiled on the fly with ts-node.
 *
 * @throws ToolInputError when the file is missing, fails to load, or exports no tools.
 */
export function loadToolModule(path: string, options: LoadToolModuleOptions = {}): Agent {
  const file = resolve(path);
  if (!existsSync(file)) {
    throw new ToolInputError(
      `Cannot find the module '${path}'. Pass the path of a .ts or .js file that exports an agent, toolsets or tools.`,
    );
  }
  const exports = requireModule(file);
  const exported = findExportedAgent(exports);
  if (exported) {
    if (options.policy) {
      const replaced = new Agent({
        card: exported.card,
        policy: options.policy,
        approvalHandler: exported.approvalHandler,
        tools: [...exported.tools.values()],
      });
      // Its resources and prompts come along (the card already lists them).
      const { catalog } = exported;
      replaced.catalog.add([
        ...catalog.listResources(),
        ...catalog.listResourceTemplates(),
        ...catalog.listPrompts(),
      ]);
      return replaced;
    }
    return exported;
  }
  const agent = new Agent({
    card: {
      name: basename(file, extname(file)),
      description: `Tools of ${basename(file)}`,
      url: 'http://127.0.0.1:0',
    },
    policy: options.policy,
  });
  for (const value of Object.values(exports)) {
    if (isTool(value)) agent.addTool(value);
    else if (Array.isArray(value) && value.every(isTool)) value.forEach((tool) => agent.addTool(tool));
    else if (typeof value === 'function' && hasToolMethods(value))
      agent.addToolset(constructToolset(value as new () => object));
    else if (typeof value === 'object' && value !== null && hasToolMethods(value.constructor))
      agent.addToolset(value);
  }
  if (agent.tools.size === 0 && agent.catalog.isEmpty) {
    throw new ToolInputError(
      `'${path}' exports no tools. Export an Agent, a class with @Tool methods, an instance of one, or tools (new NativeTool(…), calculator()…).`,
    );
  }
  return agent;
}

function requireModule(file: string): Record<string, unknown> {
  if (/\.[cm]?tsx?$/.test(file)) registerTypeScript();
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const loaded = require(file) as unknown;
    return typeof loaded === 'object' && loaded !== null
      ? (loaded as Record<string, unknown>)
      : { default: loaded };
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new ToolInputError(
      `The module '${file}' failed to load: ${reason}. Fix the error, or run it with node to see the whole trace.`,
      { cause: error },
    );
  }
}

let typeScriptRegistered = false;

function registerTypeScript(): void {
  if (
    typeScriptRegistered ||
    (process as unknown as Record<symbol, unknown>)[Symbol.for('ts-node.register.instance')]
  )
    return;
  try {
    require('ts-node').register({
      transpileOnly: true,
      compilerOptions: { experimentalDecorators: true, emitDecoratorMetadata: true },
    });
    typeScriptRegistered = true;
  } catch (error) {
    throw new ToolInputError(
      'Loading a .ts module needs ts-node (npm install --save-dev ts-node), or compile the module to JavaScript first.',
      {
        cause: error,
      },
    );
  }
}

function findExportedAgent(exports: Record<string, unknown>): Agent | undefined {
  const candidates = [exports.agent, exports.default, ...Object.values(exports)];
  // Duck-typed: the module may have loaded another copy of protolink (sources next to a built CLI).
  return candidates.find((value): value is Agent => {
    if (value instanceof Agent) return true;
    const candidate = value as Partial<Agent> | null;
    return (
      typeof candidate === 'object' &&
      candidate !== null &&
      typeof candidate.callToolInContext === 'function' &&
      typeof candidate.tools?.get === 'function'
    );
  });
}

function isTool(value: unknown): value is BaseTool {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<BaseTool>;
  return (
    typeof candidate.name === 'string' && typeof candidate.call === 'function' && 'inputSchema' in candidate
  );
}

function hasToolMethods(target: unknown): boolean {
  if (typeof target !== 'function' || target === Object) return false;
  // A class with only resources or prompts is a toolset too: its catalog is served.
  return buildToolDefinitions(target).length > 0 || hasCatalogMethods(target);
}

function constructToolset(toolset: new () => object): object {
  try {
    return new toolset();
  } catch (error) {
    throw new ToolInputError(
      `Cannot construct ${toolset.name} without arguments (${(error as Error).message}). Export an instance, or an Agent that holds it.`,
      { cause: error },
    );
  }
}
