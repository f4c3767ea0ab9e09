import { basename } from 'node:path';
import { ToolInputError } from '../../errors/tool-input-error';
import type { MCPToolAdapterOptions, MCPTransportKind } from './mcp-adapter-options';
import { redactCommandArgs } from './redact-command-args';
import { redactUrl } from './redact-url';
import { resolveMcpAuth } from './auth/resolve-mcp-auth';
import type { McpAuthHandle } from './auth/resolve-mcp-auth';
import type {
  MCPElicitationHandler,
  MCPSamplingHandler,
} from './server-requests/mcp-server-request-handlers';

// Also exported from here: callers outside this folder (the CLI's sign-in command) import it from this file.
export { redactUrl } from './redact-url';

/** The checked, defaulted form of {@link MCPToolAdapterOptions}. */
export interface ResolvedMcpConfig {
  readonly transport: MCPTransportKind;
  readonly command?: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
  readonly url?: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly maxTotalTimeoutMs: number;
  readonly runAsTask: 'required' | 'supported';
  readonly connectTimeoutMs: number;
  readonly session: 'persistent' | 'per-call';
  readonly serverName: string;
  readonly namePrefix: string;
  readonly maxResultChars: number;
  readonly maxMessageBytes: number;
  readonly maxMessageDepth: number;
  readonly maxListPages: number;
  readonly maxSchemaChars: number;
  readonly maxSchemaDepth: number;
  /** sse/http sign-in (one per adapter: tokens outlive sessions); never summarized. */
  readonly auth?: McpAuthHandle;
  readonly elicitationHandler?: MCPElicitationHandler;
  readonly samplingHandler?: MCPSamplingHandler;
}

/** The connection settings safe to keep in tool metadata: names of env variables and headers, never values. */
export interface McpConfigSummary {
  readonly server: string;
  readonly transport: MCPTransportKind;
  readonly command?: string;
  /** The command's arguments, URL credentials and the values of secret-named flags masked. */
  readonly args?: readonly string[];
  readonly cwd?: string;
  readonly url?: string;
  readonly envNames?: readonly string[];
  readonly headerNames?: readonly string[];
  readonly session: 'persistent' | 'per-call';
}

/**
 * Checks the adapter options when they are first used and fills in the defaults.
 *
 * @throws ToolInputError with the seed's messages: `Unknown transport: X. Use 'stdio', 'sse' or 'http'.`,
 * `Provide 'command' for stdio transport.`, `Provide 'url' for SSE transport.` (or `HTTP`), and for bad limits.
 */
export function resolveMcpConfig(options: MCPToolAdapterOptions): ResolvedMcpConfig {
  const transport = options.transport ?? 'stdio';
  if (transport !== 'stdio' && transport !== 'sse' && transport !== 'http') {
    throw new ToolInputError(`Unknown transport: ${String(transport)}. Use 'stdio', 'sse' or 'http'.`);
  }
  let url: URL | undefined;
  if (transport === 'stdio') {
    if (typeof options.command !== 'string' || options.command.trim() === '') {
      throw new ToolInputError("Provide 'command' for stdio transport.");
    }
  } else {
    const label = transport === 'sse' ? 'SSE' : 'HTTP';
    if (typeof options.url !== 'string' || options.url.trim() === '')
      throw new ToolInputError(`Provide 'url' for ${label} transport.`);
    url = parseServerUrl(options.url, label);
  }
  const args = options.args ?? [];
  if (!Array.isArray(args) || args.some((arg) => typeof arg !== 'string')) {
    throw new ToolInputError("'args' must be an array of strings, passed to the command unchanged.");
  }
  const env = checkStringRecord(options.env, 'env');
  const headers = checkStringRecord(options.headers, 'headers');
  const timeoutMs = checkPositive(options.timeoutMs, 'timeoutMs', 30_000);
  const session = options.session ?? 'persistent';
  if (session !== 'persistent' && session !== 'per-call') {
    throw new ToolInputError(`Unknown session mode: ${String(session)}. Use 'persistent' or 'per-call'.`);
  }
  const namePrefix = options.namePrefix ?? '';
  if (typeof namePrefix !== 'string' || !/^[A-Za-z0-9_-]{0,32}$/.test(namePrefix)) {
    throw new ToolInputError(
      `'namePrefix' must be up to 32 characters of [A-Za-z0-9_-], got ${JSON.stringify(namePrefix)}.`,
    );
  }
  const serverName = options.serverName ?? deriveServerName(transport, options.command, url);
  for (const field of ['elicitationHandler', 'samplingHandler'] as const) {
    if (options[field] !== undefined && typeof options[field] !== 'function') {
      throw new ToolInputError(`'${field}' must be a function answering the server's requests.`);
    }
  }
  const auth = resolveMcpAuth(options.auth, {
    transport,
    url,
    serverName,
    displayUrl: url ? redactUrl(url) : '',
  });
  return Object.freeze({
    transport,
    command: options.command,
    args: Object.freeze([...args]),
    env: Object.freeze({ ...env }),
    cwd: options.cwd,
    url,
    headers: Object.freeze({ ...headers }),
    timeoutMs,
    maxTotalTimeoutMs: checkPositive(options.maxTotalTimeoutMs, 'maxTotalTimeoutMs', timeoutMs * 4),
    runAsTask: readRunAsTask(options.runAsTask),
    connectTimeoutMs: checkPositive(options.connectTimeoutMs, 'connectTimeoutMs', 10_000),
    session,
    serverName,
    namePrefix,
    maxResultChars: checkPositive(options.maxResultChars, 'maxResultChars', 1_000_000),
    maxMessageBytes: checkPositive(options.maxMessageBytes, 'maxMessageBytes', 16 * 1024 * 1024),
    maxMessageDepth: checkPositive(options.maxMessageDepth, 'maxMessageDepth', 1_000),
    maxListPages: checkPositive(options.maxListPages, 'maxListPages', 100),
    maxSchemaChars: checkPositive(options.maxSchemaChars, 'maxSchemaChars', 262_144),
    maxSchemaDepth: checkPositive(options.maxSchemaDepth, 'maxSchemaDepth', 64),
    auth,
    elicitationHandler: options.elicitationHandler,
    samplingHandler: options.samplingHandler,
  });
}

/**
 * The metadata form of a configuration: no env values, no header values, no URL credentials or query values,
 * and command arguments with their secrets masked (see {@link redactCommandArgs}).
 */
export function summarizeMcpConfig(config: ResolvedMcpConfig): McpConfigSummary {
  const summary: Record<string, unknown> = {
    server: config.serverName,
    transport: config.transport,
    session: config.session,
  };
  if (config.transport === 'stdio') {
    summary.command = config.command;
    summary.args = Object.freeze(redactCommandArgs(config.args));
    if (config.cwd !== undefined) summary.cwd = config.cwd;
    summary.envNames = Object.freeze(Object.keys(config.env));
  } else if (config.url) {
    summary.url = redactUrl(config.url);
    summary.headerNames = Object.freeze(Object.keys(config.headers));
  }
  return Object.freeze(summary) as unknown as McpConfigSummary;
}

function parseServerUrl(raw: string, label: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch (error) {
    throw new ToolInputError(`'url' for ${label} transport is not a valid URL: ${JSON.stringify(raw)}.`, {
      cause: error,
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ToolInputError(
      `'url' for ${label} transport must start with http:// or https://, got ${JSON.stringify(url.protocol)}.`,
    );
  }
  return url;
}

function checkStringRecord(
  value: Record<string, string> | null | undefined,
  field: string,
): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (
    typeof value !== 'object' ||
    Array.isArray(value) ||
    Object.values(value).some((item) => typeof item !== 'string')
  ) {
    throw new ToolInputError(`'${field}' must be an object of string values, e.g. { API_TOKEN: '…' }.`);
  }
  return value;
}

function checkPositive(value: number | undefined, field: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new ToolInputError(`'${field}' must be a positive number, got ${String(value)}.`);
  }
  return value;
}

function deriveServerName(
  transport: MCPTransportKind,
  command: string | undefined,
  url: URL | undefined,
): string {
  if (transport === 'stdio') return `stdio:${basename(command ?? '')}`;
  return `${transport}:${url?.host ?? ''}`;
}

function readRunAsTask(value: unknown): 'required' | 'supported' {
  if (value === undefined || value === null) return 'required';
  if (value === 'required' || value === 'supported') return value;
  throw new ToolInputError(
    `runAsTask must be 'required' or 'supported', got ${JSON.stringify(value) ?? String(value)}.`,
  );
}
