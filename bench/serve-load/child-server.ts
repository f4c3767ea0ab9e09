import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { ServerKind } from './server-kind';

/** A server running in its own process. */
export interface ChildServer {
  readonly kind: ServerKind;
  /** Its MCP endpoint on 127.0.0.1. */
  readonly url: string;
  /** Ends the process (stdin closed, then SIGTERM, then SIGKILL); resolves once it has exited. */
  stop(): Promise<void>;
}

const live = new Set<ChildProcess>();
let exitHookInstalled = false;

/** Last resort: if the bench process exits with children still running, kill them synchronously. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const child of live) child.kill('SIGKILL');
  });
}

function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  child.stdin?.end();
  if (!(await waitForExit(child, 3000))) {
    child.kill('SIGTERM');
    if (!(await waitForExit(child, 3000))) {
      child.kill('SIGKILL');
      await waitForExit(child, 3000);
    }
  }
  live.delete(child);
}

/**
 * What the child runs before `server-main.ts`: a `.ts` require hook over TypeScript's `transpileModule`
 * with the project's compiler options. Not ts-node: its register hook loads Node's `repl`, which loads
 * `domain`, whose patched `EventEmitter.init` then runs for every socket, request and response, a cost
 * (about 7% of calls/s here) that `protolink serve`, compiled to JavaScript, never pays.
 */
const TRANSPILE_HOOK = `
const ts = require('typescript');
const { readFileSync } = require('node:fs');
const config = ts.readConfigFile('tsconfig.json', ts.sys.readFile).config;
const { options } = ts.convertCompilerOptionsFromJson(config.compilerOptions, process.cwd());
const compilerOptions = { ...options, sourceMap: false, inlineSourceMap: false, declaration: false };
require.extensions['.ts'] = (module, fileName) => {
  const source = readFileSync(fileName, 'utf8');
  module._compile(ts.transpileModule(source, { fileName, compilerOptions }).outputText, fileName);
};
require(process.argv[1]);
`;

/**
 * Starts one bench server (`server-main.ts <kind>`) in a child process (TypeScript transpiled on load by
 * {@link TRANSPILE_HOOK}, the process otherwise as lean as a compiled one) and waits (at most `startTimeoutMs`) for the `LISTENING <url>` line it prints. The child
 * exits when its stdin closes, so it cannot outlive the bench even if the bench is killed.
 */
export async function startChildServer(
  kind: ServerKind,
  startTimeoutMs = 120_000,
  env: Record<string, string> = {},
): Promise<ChildServer> {
  installExitHook();
  const child = spawn(
    process.execPath,
    ['-e', TRANSPILE_HOOK, '--', join(__dirname, 'server-main.ts'), kind],
    { cwd: join(__dirname, '..', '..'), stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } },
  );
  live.add(child);
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    if (stderr.length < 4000) stderr += chunk;
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let stdout = '';
      const timer = setTimeout(
        () =>
          reject(
            new RangeError(
              `server '${kind}' printed no URL within ${startTimeoutMs} ms; stderr: ${stderr.trim()}`,
            ),
          ),
        startTimeoutMs,
      );
      child.stdout?.setEncoding('utf8');
      child.stdout?.on('data', (chunk: string) => {
        stdout += chunk;
        const match = /^LISTENING (http:\/\/127\.0\.0\.1:\d+\/\S*)$/m.exec(stdout);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(
          new RangeError(
            `server '${kind}' exited (${code ?? signal}) before listening; stderr: ${stderr.trim()}`,
          ),
        );
      });
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
    child.stdout?.resume();
    return { kind, url, stop: () => stopChild(child) };
  } catch (error) {
    await stopChild(child);
    throw error;
  }
}
