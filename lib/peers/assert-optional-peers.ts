import { ToolInputError } from '../errors/tool-input-error';

/** One optional peer dependency an entry needs, and the module id that proves it is installed. */
export interface OptionalPeer {
  /** The npm package to install (`ai`, `@nestjs/common`). */
  name: string;
  /** The module id resolved to check it (default: `name`); a subpath for packages without a root export. */
  probe?: string;
}

/** Options of {@link assertOptionalPeers}. */
export interface AssertOptionalPeersOptions {
  /** Who needs the peers, as the user wrote it: an entry (`protolink/ai-sdk`) or a command (`protolink schemas`). */
  entry: string;
  /** Every peer the entry needs, in the order the message names them. */
  peers: readonly (string | OptionalPeer)[];
  /** The install command's flag, such as `--save-dev` for a build-time tool. */
  installFlag?: string;
  /** Resolves a module id, throwing when it cannot (default: `require.resolve` of this package). */
  resolve?: (id: string) => string;
}

function joinNames(names: readonly string[]): string {
  return names.length <= 2
    ? names.join(' and ')
    : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/**
 * Checks that the optional peer dependencies of an entry can be loaded, so the entry fails with the fix (the
 * packages and the install command) instead of a bare `Cannot find module`. The root entry never needs them.
 *
 * @throws ToolInputError naming the missing packages and the command that installs them.
 */
export function assertOptionalPeers(options: AssertOptionalPeersOptions): void {
  const resolve = options.resolve ?? require.resolve;
  const peers = options.peers.map((peer) => (typeof peer === 'string' ? { name: peer } : peer));
  const missing = peers.filter((peer) => {
    try {
      resolve(peer.probe ?? peer.name);
      return false;
    } catch {
      return true;
    }
  });
  if (missing.length === 0) return;
  const names = peers.map((peer) => peer.name);
  const plural = names.length > 1;
  const install = ['npm install', options.installFlag, ...names].filter(Boolean).join(' ');
  const which =
    missing.length === peers.length && !plural
      ? 'it could not be loaded'
      : `${joinNames(missing.map((peer) => peer.name))} could not be loaded`;
  throw new ToolInputError(
    `${options.entry} needs the optional peer ${plural ? 'dependencies' : 'dependency'} ${joinNames(names)}, ` +
      `and ${which}. Install ${plural ? 'them' : 'it'} with: ${install}`,
  );
}
