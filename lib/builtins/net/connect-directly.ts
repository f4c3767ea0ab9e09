import * as net from 'node:net';
import * as tls from 'node:tls';
import type { ConnectTarget } from './network-seams';

/**
 * The production connector: a TCP connection to the validated address (never a name, so Node does no
 * lookup of its own), wrapped in TLS for HTTPS with SNI and certificate checks for the URL's host name.
 */
export function connectDirectly(target: ConnectTarget): net.Socket {
  if (!target.tls) return net.connect({ host: target.address, port: target.port });
  const servername = net.isIP(target.hostname) === 0 ? target.hostname : undefined;
  return tls.connect({
    host: target.address,
    port: target.port,
    servername,
    ALPNProtocols: ['http/1.1'],
    // The certificate must name the URL's host, not the address the socket was pinned to.
    checkServerIdentity: (_host, certificate) => tls.checkServerIdentity(target.hostname, certificate),
  });
}
