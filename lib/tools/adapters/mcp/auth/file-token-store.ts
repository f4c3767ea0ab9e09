import { createHash } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolInputError } from '../../../../errors/tool-input-error';
import { ToolRuntimeError } from '../../../../errors/tool-runtime-error';
import type { MCPStoredAuth, MCPTokenStore } from './mcp-token-store';

/** Options of {@link FileTokenStore}. */
export interface FileTokenStoreOptions {
  /** The directory holding one JSON file per server (created with mode 0700 when missing). */
  directory: string;
}

/**
 * Keeps sign-in state on disk: one JSON file per server under a chosen directory (the file name is a hash
 * of the server URL), written atomically with mode 0600 in a 0700 directory. Its contents are never logged
 * and never appear in errors.
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
   * @throws ToolRuntimeError when the file cannot be read or is not JSON (its contents are not quoted).
   */
  async load(serverUrl: string): Promise<MCPStoredAuth | undefined> {
    const file = this.fileOf(serverUrl);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
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

  /** Writes a server's state (to a temporary file first, then renamed), mode 0600. */
  async save(serverUrl: string, data: MCPStoredAuth): Promise<void> {
    await mkdir(this.directory, { recursive: true, mode: 0o700 });
    const file = this.fileOf(serverUrl);
    const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(temporary, JSON.stringify({ server: serverUrl, auth: data }), { mode: 0o600 });
    // The mode given to writeFile is filtered by the umask; chmod makes it exact.
    await chmod(temporary, 0o600);
    await rename(temporary, file);
  }

  /** Deletes a server's file; returns whether there was one. */
  async delete(serverUrl: string): Promise<boolean> {
    const file = this.fileOf(serverUrl);
    try {
      await readFile(file);
    } catch {
      return false;
    }
    await rm(file, { force: true });
    return true;
  }
}
