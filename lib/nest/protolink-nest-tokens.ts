/** The DI token of the options given to `ProtolinkModule.forRoot()` / `forRootAsync()`. */
export const PROTOLINK_MODULE_OPTIONS = Symbol.for('protolink:nest-module-options');
