// FileTokenStore on a real file system: round trip, modes, and what it refuses in a directory others can reach
// (a planted symlink at the store file or at a temporary name, a directory others can write or do not own it).
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolRuntimeError } from '../../../../lib/errors/tool-runtime-error';
import { FileTokenStore } from '../../../../lib/mcp/client/auth/file-token-store';
import type { MCPStoredAuth } from '../../../../lib/mcp/client/auth/mcp-token-store';

const SERVER = 'https://mcp.example/mcp';
const AUTH: MCPStoredAuth = {
  tokens: { access_token: 'access-secret-1', refresh_token: 'refresh-secret-1', token_type: 'Bearer' },
};

const posix = process.platform !== 'win32';
const onPosix = posix ? it : it.skip;

async function failureOf(promise: Promise<unknown>): Promise<Error> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(outcome instanceof Error)) throw new ToolRuntimeError('expected the call to fail, it succeeded');
  return outcome;
}

describe('FileTokenStore', () => {
  let root: string;
  let elsewhere: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'protolink-file-token-store-'));
    elsewhere = mkdtempSync(join(tmpdir(), 'protolink-file-token-store-target-'));
  });

  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(elsewhere, { recursive: true, force: true });
  });

  describe('save, load and delete', () => {
    it('round-trips a sign-in and deletes it', async () => {
      const store = new FileTokenStore({ directory: join(root, 'auth') });
      expect(await store.load(SERVER)).toBeUndefined();
      expect(await store.delete(SERVER)).toBe(false);
      await store.save(SERVER, AUTH);
      expect(await store.load(SERVER)).toEqual(AUTH);
      const replaced = { tokens: { access_token: 'access-secret-2', token_type: 'Bearer' } };
      await store.save(SERVER, replaced);
      expect(await store.load(SERVER)).toEqual(replaced);
      expect(readdirSync(store.directory)).toEqual([store.fileOf(SERVER).slice(store.directory.length + 1)]);
      expect(await store.delete(SERVER)).toBe(true);
      expect(await store.load(SERVER)).toBeUndefined();
      expect(readdirSync(store.directory)).toEqual([]);
    });

    onPosix('creates its directories 0700 and its files 0600', async () => {
      const store = new FileTokenStore({ directory: join(root, 'a', 'b') });
      await store.save(SERVER, AUTH);
      expect(statSync(join(root, 'a')).mode & 0o777).toBe(0o700);
      expect(statSync(store.directory).mode & 0o777).toBe(0o700);
      expect(statSync(store.fileOf(SERVER)).mode & 0o777).toBe(0o600);
    });

    onPosix('accepts an existing directory only its owner can write (0755)', async () => {
      chmodSync(root, 0o755);
      const store = new FileTokenStore({ directory: root });
      await store.save(SERVER, AUTH);
      expect(await store.load(SERVER)).toEqual(AUTH);
      expect(statSync(root).mode & 0o777).toBe(0o755);
    });
  });

  describe('a symlink at the store file', () => {
    let store: FileTokenStore;
    let target: string;

    beforeEach(() => {
      store = new FileTokenStore({ directory: root });
      target = join(elsewhere, 'collected.json');
      writeFileSync(
        target,
        JSON.stringify({ server: SERVER, auth: { tokens: { access_token: 'planted' } } }),
      );
      symlinkSync(target, store.fileOf(SERVER));
    });

    it('is refused for writing, and its target never receives the tokens', async () => {
      const error = await failureOf(store.save(SERVER, AUTH));
      expect(error).toBeInstanceOf(ToolRuntimeError);
      expect(error.message).toContain(store.fileOf(SERVER));
      expect(error.message).toMatch(/is a symbolic link/);
      expect(error.message).toMatch(/remove it/);
      expect(readFileSync(target, 'utf8')).not.toContain('secret');
      expect(lstatSync(store.fileOf(SERVER)).isSymbolicLink()).toBe(true);
      expect(readdirSync(root)).toHaveLength(1);
    });

    it('is refused for reading: the tokens it points at are not used', async () => {
      const error = await failureOf(store.load(SERVER));
      expect(error).toBeInstanceOf(ToolRuntimeError);
      expect(error.message).toMatch(/is a symbolic link/);
      expect(error.message).not.toContain('planted');
    });

    it('is removed (not followed) by delete', async () => {
      expect(await store.delete(SERVER)).toBe(true);
      expect(existsSync(store.fileOf(SERVER))).toBe(false);
      expect(readFileSync(target, 'utf8')).toContain('planted');
    });
  });

  describe('temporary files', () => {
    afterEach(() => {
      jest.useRealTimers();
    });

    it('are not at a predictable name: a symlink planted at the pid.time name never receives the tokens', async () => {
      // Only the clock is stopped (no timer is faked), so the old name `<file>.<pid>.<Date.now()>.tmp` is known.
      const now = Date.now();
      jest.useFakeTimers({
        now,
        doNotFake: [
          'hrtime',
          'nextTick',
          'performance',
          'queueMicrotask',
          'requestAnimationFrame',
          'cancelAnimationFrame',
          'requestIdleCallback',
          'cancelIdleCallback',
          'setImmediate',
          'clearImmediate',
          'setInterval',
          'clearInterval',
          'setTimeout',
          'clearTimeout',
        ],
      });
      expect(Date.now()).toBe(now);
      const store = new FileTokenStore({ directory: root });
      const target = join(elsewhere, 'collected.json');
      writeFileSync(target, '');
      const file = store.fileOf(SERVER);
      symlinkSync(target, `${file}.${process.pid}.${now}.tmp`);
      await store.save(SERVER, AUTH);
      await store.save(SERVER, { tokens: { access_token: 'access-secret-2', token_type: 'Bearer' } });
      expect(readFileSync(target, 'utf8')).toBe('');
      expect((await store.load(SERVER))?.tokens?.access_token).toBe('access-secret-2');
      // Only the planted link and the store file remain: no temporary file is left behind.
      expect(readdirSync(root).sort()).toEqual(
        [file, `${file}.${process.pid}.${now}.tmp`].map((path) => path.slice(root.length + 1)).sort(),
      );
    });
  });

  describe('an unsafe directory', () => {
    onPosix.each([
      ['world-writable', 0o777],
      ['world-writable with the sticky bit', 0o1777],
      ['group-writable', 0o770],
    ])('refuses a %s directory for save and load, and says how to fix it', async (_kind, mode) => {
      const directory = join(root, 'shared');
      mkdirSync(directory);
      chmodSync(directory, mode);
      const store = new FileTokenStore({ directory });
      for (const attempt of [() => store.save(SERVER, AUTH), () => store.load(SERVER)]) {
        const error = await failureOf(attempt());
        expect(error).toBeInstanceOf(ToolRuntimeError);
        expect(error.message).toContain(`chmod 700 ${directory}`);
        expect(error.message).toMatch(/or choose another directory/);
      }
      expect(readdirSync(directory)).toEqual([]);
    });

    onPosix('refuses a directory another user owns', async () => {
      let directory: string;
      if (process.getuid?.() === 0) {
        // As root: hand a private directory to "nobody".
        directory = join(root, 'someone-elses');
        mkdirSync(directory, { mode: 0o700 });
        chownSync(directory, 65534, 65534);
        chmodSync(directory, 0o755);
      } else {
        // As anyone else: the root directory belongs to root and only root can write it.
        directory = '/';
      }
      const store = new FileTokenStore({ directory });
      const error = await failureOf(store.load(SERVER));
      expect(error).toBeInstanceOf(ToolRuntimeError);
      expect(error.message).toMatch(/is owned by uid \d+, not by you/);
      expect(error.message).toMatch(/choose another directory/);
      await expect(store.save(SERVER, AUTH)).rejects.toThrow(/not by you/);
    });
  });
});
