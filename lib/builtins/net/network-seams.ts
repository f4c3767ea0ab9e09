import type * as net from 'node:net';

/** Where the safe HTTP layer opens one connection: a validated address plus what TLS needs. */
export interface ConnectTarget {
  /** The validated, public IP address (never a host name). */
  address: string;
  /** The TCP port: 80 for http, 443 for https. */
  port: number;
  /** The URL's host name (or IP literal), used for the `Host` header, TLS SNI and certificate checks. */
  hostname: string;
  /** Whether the request is HTTPS. */
  tls: boolean;
}

/** Resolves a host name to IP address strings (the OS resolver by default). */
export type HostResolver = (hostname: string) => Promise<string[]>;

/**
 * Opens the socket a request is written to, connected to `target.address`. The default performs TLS (SNI and
 * certificate checks for `target.hostname`) when `target.tls` is set; a test connector may return a plain
 * socket to a local server for either kind.
 */
export type SocketConnector = (target: ConnectTarget) => net.Socket;

/**
 * The test seams of the network built-ins (SPEC.md section 4). In production neither is set: names are
 * resolved by the OS resolver and the socket connects directly to the validated address. Every address a
 * resolver returns is validated before the connector sees it.
 */
export interface NetworkSeams {
  /** Replaces the OS resolver (tests map a test host name to a public address). */
  resolver?: (hostname: string) => Promise<string[]>;
  /** Replaces the direct connection (tests map the validated public address to a local server). */
  connector?: (target: { address: string; port: number; hostname: string; tls: boolean }) => net.Socket;
}
