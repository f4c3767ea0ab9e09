/// <reference types="node" preserve="true" />
// Entry point `protolink/tools`: the tool contract, decorators, registry, schema helpers and built-ins
// (the built-ins also have their own entry, `protolink/tools/builtins`).
export type { BaseTool, ToolCallOptions } from './base-tool';
export type { JsonSchema } from './json-schema';
export type { ActionBuilder, ToolFunction } from './tool-types';
export { NativeTool } from './native-tool';
export { ToolResult } from './tool-result';
export type { ToolResultJson, ToolContentPart, ResourceInput, ResourceLinkInput } from './tool-result';
export type { NativeToolOptions } from './native-tool-options';
export type { TaskSupport } from './task-support';
export { TOOL_NAME_PATTERN, assertToolName, normalizeCapabilities } from './tool-name';
export type { CapabilityList } from '../capabilities/capability-name';
export { Tool } from './decorators/tool.decorator';
export { Param } from './decorators/param.decorator';
export { Context } from './decorators/context.decorator';
export { Toolset } from './decorators/toolset.decorator';
export type { ToolsetOptions } from './decorators/toolset.decorator';
export { Description } from './decorators/description.decorator';
export { PropertyType } from './decorators/property-type.decorator';
export type {
  ToolOptions,
  ParamOptions,
  ParamType,
  ParamTypeClass,
  ParamTypeName,
  PropertyTypeDeclaration,
} from './metadata/metadata-records';
export { scanTools } from './registry/scan-tools';
export type { ScanToolsOptions } from './registry/scan-tools';
export { ToolRegistry } from './registry/tool-registry';
export type { ToolRegistryOptions, RegisterToolOptions } from './registry/tool-registry';
export { classToJsonSchema } from './schema/class-to-json-schema';
export type { ClassToJsonSchemaOptions } from './schema/class-to-json-schema';
export { normalizeSchema } from './schema/normalize-schema';
export type { SchemaSource } from './schema/normalize-schema';
export { inferInputSchema, inferOutputSchema } from './schema/infer-schema';
export type { InferSchemaOptions, SchemaTarget } from './schema/infer-schema';
export { validateToolArgs } from './validation/validate-tool-args';
export type { ValidateToolArgsOptions } from './validation/validate-tool-args';
export type { DtoBinding } from './validation/validate-dto-args';
export { DEFAULT_VALIDATION_LIMITS } from './validation/validation-limits';
export type { ValidationLimits } from './validation/validation-limits';
export { loadSchemaManifest } from './manifest/load-schema-manifest';
export type { SchemaManifest, SchemaManifestEntry } from './manifest/schema-manifest';
// The built-ins live in lib/builtins (users of this API, like any tool); re-exported here by name so that
// `protolink/tools` keeps offering them. This entry is the only file in lib/tools that imports lib/builtins.
export { fetchUrl } from '../builtins/fetch-url/fetch-url';
export type { FetchUrlOptions } from '../builtins/fetch-url/fetch-url';
export type { FetchUrlResult } from '../builtins/fetch-url/run-fetch-url';
export type {
  NetworkSeams,
  ConnectTarget,
  HostResolver,
  SocketConnector,
} from '../builtins/net/network-seams';
export { webSearch } from '../builtins/web-search/web-search';
export type { WebSearchOptions } from '../builtins/web-search/web-search';
export type {
  WebSearchEngine,
  WebSearchFreshness,
  WebSearchResult,
  WebSearchResponse,
} from '../builtins/web-search/web-search-types';
export { BRAVE_API_KEY_VARIABLE } from '../builtins/web-search/read-brave-api-key';
export { calculator } from '../builtins/calculator/calculator';
export { currentDatetime } from '../builtins/datetime/current-datetime';
export type { CurrentDatetimeOptions } from '../builtins/datetime/current-datetime';
export type { CalculatorResult } from '../builtins/calculator/evaluate-arithmetic';
export type { CurrentDatetimeResult } from '../builtins/datetime/build-current-datetime';
export type { Clock } from '../builtins/datetime/read-clock';
