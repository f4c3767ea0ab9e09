import { readFileSync } from 'node:fs';
import { ToolInputError } from '../errors/tool-input-error';

/** The environment variable `protolink serve` reads its bearer token from. */
export const SERVE_TOKEN_ENV = 'PROTOLINK_TOKEN';

/** Where `protolink serve` may find its bearer token. */
export interface ServeTokenSources {
  /** `--token <token>` (visible in the process list; prefer the other two). */
  token?: string;
  /** `--token-file <path>`: a file holding the token (one trailing newline is ignored). */
  tokenFile?: string;
  /** The environment to read {@link SERVE_TOKEN_ENV} from. */
  env: Readonly<Record<string, string | undefined>>;
}

/** A resolved token and where it came from (for messages; never the token itself). */
export interface ServeToken {
  readonly token: string;
  readonly source: '--token' | '--token-file' | typeof SERVE_TOKEN_ENV;
}

/**
 * Picks the bearer token of `protolink serve`: `--token` or `--token-file` (never both), else the
 * `PROTOLINK_TOKEN` environment variable, else none. A file's one trailing newline is dropped; an empty or
 * blank token from any source is refused, since it would silently turn authentication off.
 *
 * @throws ToolInputError when both options are given, the file cannot be read, or a token is empty.
 */
export function resolveServeToken(sources: ServeTokenSources): ServeToken | undefined {
  if (sources.token !== undefined && sources.tokenFile !== undefined) {
    throw new ToolInputError(
      'Give the token once: --token or --token-file, not both. Prefer --token-file (or PROTOLINK_TOKEN): a --token value is visible in the process list.',
    );
  }
  if (sources.token !== undefined) {
    assertNotBlank(sources.token, '--token must not be empty', 'leave --token out');
    return { token: sources.token, source: '--token' };
  }
  if (sources.tokenFile !== undefined) {
    const token = readTokenFile(sources.tokenFile);
    assertNotBlank(
      token,
      `--token-file '${sources.tokenFile}' holds no token (it is empty)`,
      'leave --token-file out',
    );
    return { token, source: '--token-file' };
  }
  const fromEnv = sources.env[SERVE_TOKEN_ENV];
  if (fromEnv === undefined) return undefined;
  assertNotBlank(fromEnv, `${SERVE_TOKEN_ENV} is set but empty`, `unset ${SERVE_TOKEN_ENV}`);
  return { token: fromEnv, source: SERVE_TOKEN_ENV };
}

function readTokenFile(path: string): string {
  if (path.trim() === '') throw new ToolInputError('--token-file needs a path to a file holding the token.');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (code ?? 'unreadable');
    throw new ToolInputError(
      `Cannot read --token-file '${path}' (${why}); pass the path of a file holding the token.`,
      { cause: error },
    );
  }
  return text.endsWith('\r\n') ? text.slice(0, -2) : text.endsWith('\n') ? text.slice(0, -1) : text;
}

function assertNotBlank(token: string, what: string, alternative: string): void {
  if (token.trim() !== '') return;
  throw new ToolInputError(
    `${what}: an empty token would turn authentication off. Pass a real secret, or ${alternative}.`,
  );
}
