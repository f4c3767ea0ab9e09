/**
 * Which toolchains emit no decorator metadata, as the no-metadata errors say it: esbuild and tsx never do;
 * vitest up to version 3 transforms with esbuild (none), vitest 4 emits it when tsconfig.json sets
 * `emitDecoratorMetadata`.
 */
export const NO_METADATA_TOOLCHAINS =
  'esbuild and tsx never emit it, whatever tsconfig.json says; vitest emits it only from version 4 and with ' +
  '"emitDecoratorMetadata": true in tsconfig.json';

/** The two toolchain fixes every no-metadata error offers after its own explicit-type fix. */
export const COMPILE_WITH_METADATA =
  '2) compile with swc and jsc.transform.decoratorMetadata: true (with jsc.parser.decorators and legacyDecorator); ' +
  `3) compile with tsc ("experimentalDecorators" and "emitDecoratorMetadata" in tsconfig.json, and import 'reflect-metadata').`;
