import * as net from 'node:net';
import { connectDirectly } from '../../../lib/builtins/net/connect-directly';
import { startHttpTestServer } from '../../fixtures/net/test-http-server';
import type { TestServer } from '../../fixtures/net/test-http-server';

let server: TestServer;

beforeAll(async () => {
  server = await startHttpTestServer((_request, response) => response.end('ok'));
});

afterAll(async () => {
  await server.close();
});

function waitFor(socket: net.Socket, event: string): Promise<unknown> {
  return new Promise((resolve) => socket.once(event, resolve));
}

describe('connectDirectly', () => {
  it('opens a TCP connection to the address, not to the host name', async () => {
    const socket = connectDirectly({
      address: '127.0.0.1',
      port: server.port,
      hostname: 'never-resolved.example',
      tls: false,
    });
    await waitFor(socket, 'connect');
    expect(socket.remoteAddress).toBe('127.0.0.1');
    expect(socket.remotePort).toBe(server.port);
    socket.destroy();
  });

  it('sends a TLS ClientHello naming the host (SNI) to the address, and fails when the server does not answer TLS', async () => {
    let resolveHello: (hello: Buffer) => void = () => undefined;
    const hello = new Promise<Buffer>((resolve) => {
      resolveHello = resolve;
    });
    const tcp = net.createServer((peer) => {
      peer.once('data', (chunk: Buffer) => {
        resolveHello(chunk);
        peer.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      });
    });
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    try {
      const port = (tcp.address() as net.AddressInfo).port;
      const socket = connectDirectly({ address: '127.0.0.1', port, hostname: 'secure.example', tls: true });
      const failed = waitFor(socket, 'error');
      const clientHello = await hello;
      expect(clientHello[0]).toBe(0x16);
      expect(clientHello.includes(Buffer.from('secure.example'))).toBe(true);
      const error = (await failed) as Error & { code?: string };
      expect(error.code).toMatch(/^(ERR_SSL_|ECONNRESET|EPROTO)/u);
      socket.destroy();
    } finally {
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
    }
  });

  it('sends no SNI for an IP-literal host', async () => {
    let resolveHello: (hello: Buffer) => void = () => undefined;
    const hello = new Promise<Buffer>((resolve) => {
      resolveHello = resolve;
    });
    const tcp = net.createServer((peer) => {
      peer.once('data', (chunk: Buffer) => {
        resolveHello(chunk);
        peer.destroy();
      });
    });
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    try {
      const port = (tcp.address() as net.AddressInfo).port;
      const socket = connectDirectly({ address: '127.0.0.1', port, hostname: '93.184.216.34', tls: true });
      socket.on('error', () => undefined);
      const clientHello = await hello;
      expect(clientHello.includes(Buffer.from('93.184.216.34'))).toBe(false);
      socket.destroy();
    } finally {
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
    }
  });
});
