import { createHash, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import type { Stats } from 'node:fs';
import { chmod, lstat, mkdir, open, rename, rm, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolInputError } from '../../../errors/tool-input-error';
import { ToolRuntimeError } from '../../../errors/tool-runtime-error';
import type { MCPStoredAuth, MCPTokenStore } from './mcp-token-store';

/** Options of {@link FileTokenStore}. */
export interface FileTokenStoreOptions {
  /** The directory holding one JSON file per server (created with mode 0700 when missing). */
  directory: string;
}

// Where the platform has it, opening for reading fails (ELOOP) on a symlink instead of following it.
const READ_NO_FOLLOW = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0);

/**
 * Keeps sign-in state on disk: one JSON file per server under a chosen directory (the file name is a hash
 * of the server URL), written atomically with mode 0600 in a 0700 directory. Its contents are never logged
 * and never appear in errors.
 *
 * On POSIX the directory must belong to the current user and be writable by nobody else, and the store
 * never reads or writes through a symbolic link: a temporary file with a random name is created exclusively
 * (never opened if something is already at that name), then renamed over the server's file.
 */
export class FileTokenStore implements MCPTokenStore {
  /** The directory of the files. */
  readonly directory: string;

  /** @throws ToolInputError when `directory` is not a non-empty string. */
  constructor(options: FileTokenStoreOptions) {
    if (typeof options?.directory !== 'string' || options.directory.trim() === '') {
      throw new ToolInputError(
        "FileTokenStore needs a 'directory' (e.g. ~/.protolink/mcp-auth) to keep one file per server in.",
      );
    }
    this.directory = options.directory;
  }

  /** The file that holds a server's state. */
  fileOf(serverUrl: string): string {
    return join(this.directory, `${createHash('sha256').update(serverUrl).digest('hex').slice(0, 32)}.json`);
  }

  /**
   * The stored state of a server, or `undefined` when there is no file.
   *
   * @throws ToolRuntimeError when the directory is unsafe (see {@link FileTokenStore}), the file is a
   * symbolic link, or it cannot be read or is not JSON (its contents are not quoted).
   */
  async load(serverUrl: string): Promise<MCPStoredAuth | undefined> {
    if (!(await this.checkDirectory())) return undefined;
    const file = this.fileOf(serverUrl);
    if (!(await this.checkNotLink(file, serverUrl))) return undefined;
    let text: string;
    try {
      const handle = await open(file, READ_NO_FOLLOW);
      try {
        if (!(await handle.stat()).isFile()) {
          throw new ToolRuntimeError(
            `Could not read the stored MCP sign-in of ${serverUrl} (${file}): it is not a regular file; remove it and sign in again.`,
          );
        }
        text = await handle.readFile('utf8');
      } finally {
        await handle.close();
      }
    } catch (error) {
      if (error instanceof ToolRuntimeError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return undefined;
      if (code === 'ELOOP') throw symlinkRefused(file, serverUrl);
      throw new ToolRuntimeError(
        `Could not read the stored MCP sign-in of ${serverUrl} (${file}): ${(error as Error).message}.`,
        { cause: error },
      );
    }
    try {
      const parsed = JSON.parse(text) as { server?: string; auth?: MCPStoredAuth };
      return parsed.server === serverUrl ? parsed.auth : undefined;
    } catch {
      throw new ToolRuntimeError(
        `The stored MCP sign-in of ${serverUrl} (${file}) is not valid JSON; delete it (protolink mcp logout --url ${serverUrl}) and sign in again.`,
      );
    }
  }

  /**
   * Writes a server's state, mode 0600: to a new temporary file with a random name first, then renamed
   * over the server's file.
   *
   * @throws ToolRuntimeError when the directory is unsafe (see {@link FileTokenStore}), the server's file is
   * a symbolic link, or the write fails (e.g. a directory is at the file's name).
   */
  async save(serverUrl: string, data: MCPStoredAuth): Promise<void> {
    const file = this.fileOf(serverUrl);
    let temporary: string | undefined;
    try {
      const created = await mkdir(this.directory, { recursive: true, mode: 0o700 });
      // The mode given to mkdir is filtered by the umask; chmod makes it exact.
      if (created !== undefined) await chmod(this.directory, 0o700);
      await this.checkDirectory();
      await this.checkNotLink(file, serverUrl);
      temporary = `${file}.${randomBytes(16).toString('hex')}.tmp`;
      // 'wx' is O_CREAT|O_EXCL: it fails on anything already at that name, a symlink included.
      const handle = await open(temporary, 'wx', 0o600);
      try {
        // The mode given to open is filtered by the umask; chmod makes it exact.
        await handle.chmod(0o600);
        await handle.writeFile(JSON.stringify({ server: serverUrl, auth: data }));
        await handle.sync();
      } finally {
        await handle.close();
      }
      // rename replaces whatever is at the file's name (a link included) and never writes through it.
      await rename(temporary, file);
      temporary = undefined;
    } catch (error) {
      if (temporary !== undefined) await rm(temporary, { force: true }).catch(() => undefined);
      if (error instanceof ToolRuntimeError) throw error;
      throw new ToolRuntimeError(
        `Could not save the MCP sign-in of ${serverUrl} in ${this.directory}: ${(error as Error).message}.`,
        { cause: error },
      );
    }
  }

  /**
   * Deletes a server's file (a symbolic link there is removed, never followed); returns whether there was
   * one.
   *
   * @throws ToolRuntimeError when something other than a file or a link is at the file's name.
   */
  async delete(serverUrl: string): Promise<boolean> {
    const file = this.fileOf(serverUrl);
    let stats: Stats;
    try {
      stats = await lstat(file);
    } catch {
      return false;
    }
    if (!stats.isFile() && !stats.isSymbolicLink()) {
      throw new ToolRuntimeError(
        `The stored MCP sign-in of ${serverUrl} (${file}) is not a regular file; remove it yourself.`,
      );
    }
    try {
      await unlink(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw new ToolRuntimeError(
        `Could not delete the stored MCP sign-in of ${serverUrl} (${file}): ${(error as Error).message}.`,
        { cause: error },
      );
    }
    return true;
  }

  /**
   * Whether the directory exists; refuses one that is not a directory, or (on POSIX) is not owned by the
   * current user or can be written by its group or others (another user could plant links or tokens there).
   */
  private async checkDirectory(): Promise<boolean> {
    let stats: Stats;
    try {
      stats = await stat(this.directory);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw new ToolRuntimeError(
        `Could not use ${this.directory} for MCP sign-ins: ${(error as Error).message}.`,
        { cause: error },
      );
    }
    if (!stats.isDirectory()) {
      throw new ToolRuntimeError(
        `${this.directory} is not a directory; choose another directory for MCP sign-ins (FileTokenStore's 'directory', PROTOLINK_MCP_AUTH_DIR for the CLI).`,
      );
    }
    // Windows has neither POSIX owners nor mode bits (process.getuid is undefined there).
    const uid = process.platform === 'win32' ? undefined : process.getuid?.();
    if (uid === undefined) return true;
    if (stats.uid !== uid) {
      throw new ToolRuntimeError(
        `${this.directory} is owned by uid ${stats.uid}, not by you (uid ${uid}), so its owner could read or replace your MCP sign-in tokens; choose another directory of your own (FileTokenStore's 'directory', PROTOLINK_MCP_AUTH_DIR for the CLI).`,
      );
    }
    if ((stats.mode & 0o022) !== 0) {
      const who = (stats.mode & 0o002) !== 0 ? 'every user' : 'its group';
      throw new ToolRuntimeError(
        `${this.directory} can be written by ${who} (mode ${(stats.mode & 0o7777).toString(8)}), who could plant links or tokens for your MCP sign-ins there; run \`chmod 700 ${this.directory}\` or choose another directory (FileTokenStore's 'directory', PROTOLINK_MCP_AUTH_DIR for the CLI).`,
      );
    }
    return true;
  }

  /** Whether something is at `file`; refuses a symbolic link there. */
  private async checkNotLink(file: string, serverUrl: string): Promise<boolean> {
    let stats: Stats;
    try {
      stats = await lstat(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw new ToolRuntimeError(
        `Could not read the stored MCP sign-in of ${serverUrl} (${file}): ${(error as Error).message}.`,
        { cause: error },
      );
    }
    if (stats.isSymbolicLink()) throw symlinkRefused(file, serverUrl);
    return true;
  }
}

function symlinkRefused(file: string, serverUrl: string): ToolRuntimeError {
  return new ToolRuntimeError(
    `The stored MCP sign-in of ${serverUrl} (${file}) is a symbolic link, which is never read or written through (it could send your tokens elsewhere); remove it (protolink mcp logout --url ${serverUrl}) and sign in again.`,
  );
}
