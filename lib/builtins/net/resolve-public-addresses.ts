import { raceSignal } from '../../runtime/race-signal';
import { promises as dns } from 'node:dns';
import * as net from 'node:net';
import { ToolRuntimeError } from '../../errors/tool-runtime-error';
import { buildUnsafeUrlError } from './build-unsafe-url-error';
import { describeNonPublicAddress } from './is-public-address';
import type { HostResolver } from './network-seams';

/** Most addresses accepted from one resolver answer (a longer answer is cut, never trusted blindly). */
const MAX_ADDRESSES = 32;

/** Options of {@link resolvePublicAddresses}. */
export interface ResolvePublicAddressesOptions {
  /** The URL being fetched (named in error messages). */
  url: string;
  /** Replaces the OS resolver. */
  resolver?: HostResolver;
  /** Stops waiting for the resolver (getaddrinfo itself cannot be cancelled). */
  signal: AbortSignal;
  /** The tool named in error messages. */
  toolName?: string;
  /** The provider named in runtime errors. */
  provider?: string;
}

/**
 * Returns the addresses a connection may use for `hostname`: the literal itself for an IP host, otherwise
 * every address the resolver returns, each one validated. One non-public address refuses the whole answer,
 * so a name that mixes public and private addresses is never reached.
 *
 * @throws UnsafeUrlError when any address is not public or not an IP address at all.
 * @throws ToolRuntimeError when the name cannot be resolved or resolves to nothing.
 * @throws the signal's reason when `signal` aborts first.
 */
export async function resolvePublicAddresses(
  hostname: string,
  options: ResolvePublicAddressesOptions,
): Promise<string[]> {
  const literal = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  const answer =
    net.isIP(literal) !== 0 ? [literal] : await raceSignal(lookup(literal, options), options.signal);
  if (!Array.isArray(answer) || answer.length === 0) {
    throw new ToolRuntimeError(
      `${prefix(options)}could not resolve public URL host '${literal}': the resolver returned no address.`,
      { toolName: options.toolName, provider: options.provider, retryable: true },
    );
  }
  const addresses: string[] = [];
  for (const address of answer.slice(0, MAX_ADDRESSES)) {
    const text = typeof address === 'string' ? address : String(address);
    const problem = describeNonPublicAddress(text);
    if (problem !== null) {
      throw buildUnsafeUrlError(
        options.url,
        `the host '${literal}' resolves to ${text.slice(0, 64)}, which is not public: ${problem}`,
        'non-public address',
        { toolName: options.toolName },
      );
    }
    if (!addresses.includes(text)) addresses.push(text);
  }
  return addresses;
}

async function lookup(hostname: string, options: ResolvePublicAddressesOptions): Promise<string[]> {
  try {
    if (options.resolver) return await options.resolver(hostname);
    const records = await dns.lookup(hostname, { all: true, verbatim: true });
    return records.map((record) => record.address);
  } catch (error) {
    if (options.signal.aborted) throw options.signal.reason;
    const code = (error as { code?: unknown }).code;
    throw new ToolRuntimeError(
      `${prefix(options)}could not resolve public URL host '${hostname}'${typeof code === 'string' ? ` (${code})` : ''}. ` +
        'Check the host name.',
      { toolName: options.toolName, provider: options.provider, cause: error, retryable: true },
    );
  }
}

function prefix(options: { toolName?: string }): string {
  return options.toolName === undefined ? '' : `${options.toolName}: `;
}
