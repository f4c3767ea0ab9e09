import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Command } from 'commander';
import { ToolInputError } from '../../errors/tool-input-error';
import { lazyRequire } from '../../runtime/lazy-require';
import type { CliIo } from '../cli-io';
import { findTypeScriptFiles } from '../find-typescript-files';
import { terminalSafeIo } from '../terminal-safe-io';

// The schema generator (and the TypeScript compiler it drives) loads in the action, not for `--help`.
const loadManifestGenerator = lazyRequire(
  (): typeof import('../../tools/manifest/generate-schema-manifest') =>
    require('../../tools/manifest/generate-schema-manifest'),
);

/** Options of `protolink schemas`. */
export interface SchemasCommandOptions {
  /** Where to write the manifest. */
  out: string;
}

/**
 * Runs the typescript-json-schema build step: finds the `@Tool` classes below `paths` and writes the schema
 * manifest that `loadSchemaManifest` reads.
 *
 * @throws ToolInputError when no file holds a `@Tool` method or the files cannot be analysed.
 */
export function runSchemasCommand(paths: readonly string[], options: SchemasCommandOptions, io: CliIo): void {
  io = terminalSafeIo(io);
  const files = findTypeScriptFiles(paths.length ? paths : ['.']).filter((file) =>
    readFileSync(file, 'utf8').includes('@Tool('),
  );
  if (files.length === 0) {
    throw new ToolInputError(
      `No TypeScript file under ${paths.join(', ') || '.'} has a @Tool method; pass the files or folders of your toolsets.`,
    );
  }
  const manifest = loadManifestGenerator().generateSchemaManifest({ files });
  writeFileSync(options.out, `${JSON.stringify(manifest, null, 2)}\n`);
  const count = Object.keys(manifest.tools).length;
  io.out(
    `Wrote ${count} tool schema entr${count === 1 ? 'y' : 'ies'} from ${files.length} file${files.length === 1 ? '' : 's'} to ${relative(process.cwd(), options.out) || options.out}.`,
  );
  io.out(
    `Load it with loadSchemaManifest('${options.out}') and pass it as { manifest } to scanTools or new ToolRegistry().`,
  );
}

/** Adds `schemas` to the program. */
export function addSchemasCommand(program: Command, io: CliIo): void {
  program
    .command('schemas')
    .description(
      'compile @Tool classes with typescript-json-schema (a dev dependency: npm install --save-dev typescript-json-schema) and write the schema manifest (output schemas from return types, interface-typed parameters)',
    )
    .argument('[paths...]', 'TypeScript files or folders holding @Tool classes', [])
    .option('-o, --out <file>', 'where to write the manifest', 'protolink.schemas.json')
    .action((paths: string[], options: SchemasCommandOptions) => runSchemasCommand(paths, options, io));
}
