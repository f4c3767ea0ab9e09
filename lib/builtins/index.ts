/// <reference types="node" preserve="true" />
// Entry point `protolink/tools/builtins` (the original's `protolink.tools.builtins`): the four built-in tool
// factories, their options and result types. `protolink/tools` and `protolink` re-export the same names.
export { webSearch } from './web-search/web-search';
export type { WebSearchOptions } from './web-search/web-search';
export type {
  WebSearchEngine,
  WebSearchFreshness,
  WebSearchResult,
  WebSearchResponse,
} from './web-search/web-search-types';
export { BRAVE_API_KEY_VARIABLE } from './web-search/read-brave-api-key';
export { fetchUrl } from './fetch-url/fetch-url';
export type { FetchUrlOptions } from './fetch-url/fetch-url';
export type { FetchUrlResult } from './fetch-url/run-fetch-url';
export type { NetworkSeams, ConnectTarget, HostResolver, SocketConnector } from './net/network-seams';
export { calculator } from './calculator/calculator';
export type { CalculatorResult } from './calculator/evaluate-arithmetic';
export { currentDatetime } from './datetime/current-datetime';
export type { CurrentDatetimeOptions } from './datetime/current-datetime';
export type { CurrentDatetimeResult } from './datetime/build-current-datetime';
export type { Clock } from './datetime/read-clock';
