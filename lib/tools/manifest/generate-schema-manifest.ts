import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { ToolInputError } from '../../errors/tool-input-error';
import { assertOptionalPeers } from '../../peers/assert-optional-peers';
import type { JsonSchema } from '../json-schema';
import { normalizeSchema } from '../schema/normalize-schema';
import type { SchemaManifest } from './schema-manifest';
import { findToolMethods } from './find-tool-methods';
import type { FoundToolMethod } from './find-tool-methods';

/** Options of {@link generateSchemaManifest}. */
export interface GenerateSchemaManifestOptions {
  /** TypeScript files holding `@Tool` classes (exported classes only). */
  files: string[];
}

const COMPILER_OPTIONS = {
  target: 'es2022',
  lib: ['es2022'],
  types: [],
  strict: true,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  skipLibCheck: true,
  esModuleInterop: true,
  module: 'commonjs',
  moduleResolution: 'node10',
};

/**
 * Compiles `@Tool` classes with typescript-json-schema and returns the schemas that run-time metadata
 * cannot see: output schemas from return types (`Promise<T>` unwrapped) and schemas of interface-, union-
 * or array-typed parameters. A build-time step (hundreds of milliseconds and a compiler): never at import.
 *
 * typescript-json-schema is an optional peer dependency, loaded only here: production installs carry no compiler.
 *
 * @throws ToolInputError when no file is given, typescript-json-schema is not installed (naming the install
 * command), or the files do not compile.
 */
export function generateSchemaManifest(options: GenerateSchemaManifestOptions): SchemaManifest {
  if (!options.files.length)
    throw new ToolInputError('protolink schemas needs at least one TypeScript file with @Tool classes.');
  assertOptionalPeers({
    entry: 'protolink schemas',
    peers: ['typescript-json-schema'],
    installFlag: '--save-dev',
  });
  const tjs = require('typescript-json-schema') as typeof import('typescript-json-schema');
  const files = options.files.map((file) => resolve(file));
  const found = findToolMethods(files);
  const manifest: SchemaManifest = { version: 1, tools: {} };
  if (found.length === 0) return manifest;
  const workDirectory = mkdtempSync(join(tmpdir(), 'protolink-schemas-'));
  try {
    const helper = join(workDirectory, 'protolink-schema-types.ts');
    const aliases = new Map<
      string,
      { method: FoundToolMethod; role: 'output' | 'param' | 'whole'; name?: string }
    >();
    const lines: string[] = [];
    found.forEach((method, methodIndex) => {
      const spec = relative(dirname(helper), method.file).replace(/\\/g, '/').replace(/\.ts$/, '');
      const alias = `__C${methodIndex}`;
      lines.push(
        `import { ${method.className} as ${alias} } from '${spec.startsWith('.') ? spec : `./${spec}`}';`,
      );
      const member = `${alias}['${method.methodName}']`;
      const output = `__Out${methodIndex}`;
      lines.push(`export type ${output} = Awaited<ReturnType<${member}>>;`);
      aliases.set(output, { method, role: 'output' });
      method.params.forEach((param) => {
        const name = `__P${methodIndex}_${param.index}`;
        lines.push(`export type ${name} = Parameters<${member}>[${param.index}];`);
        aliases.set(name, { method, role: param.name === undefined ? 'whole' : 'param', name: param.name });
      });
    });
    writeFileSync(helper, `${lines.join('\n')}\n`);
    const program = tjs.getProgramFromFiles([...files, helper], COMPILER_OPTIONS);
    const generator = tjs.buildGenerator(
      program,
      { required: true, noExtraProps: true, ignoreErrors: true, propOrder: true },
      [helper],
    );
    if (!generator)
      throw new ToolInputError(
        'typescript-json-schema could not analyse the files; run tsc on them to see the errors.',
      );
    for (const [alias, target] of aliases) {
      let schema: JsonSchema;
      try {
        schema = normalizeSchema(generator.getSchemaForSymbol(alias) as JsonSchema);
      } catch {
        continue;
      }
      delete schema.$schema;
      const key = `${target.method.className}.${target.method.methodName}`;
      const entry = (manifest.tools[key] ??= {});
      if (target.role === 'output') entry.outputSchema = schema;
      else if (target.role === 'whole') entry.inputSchema = schema;
      else (entry.parameters ??= {})[target.name!] = schema;
    }
    return manifest;
  } finally {
    rmSync(workDirectory, { recursive: true, force: true });
  }
}
