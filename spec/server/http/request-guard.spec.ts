import type { IncomingMessage } from 'node:http';
import { RequestGuard } from '../../../lib/server/http/request-guard';

function request(headers: Record<string, string | undefined>): IncomingMessage {
  return { headers } as unknown as IncomingMessage;
}

describe('RequestGuard', () => {
  const guard = new RequestGuard({
    port: 8080,
    listenHostname: '127.0.0.1',
    allowedHosts: ['Agents.Internal', 'proxy.example:8443'],
    allowedOrigins: ['https://console.example.com'],
    token: 'tok',
  });

  describe('checkOrigin', () => {
    it('accepts loopback names with any port, the listen host and the configured hosts', () => {
      for (const host of [
        '127.0.0.1:8080',
        'localhost',
        'LOCALHOST:1',
        '[::1]:8080',
        'agents.internal:9',
        'proxy.example:8443',
      ]) {
        expect(guard.checkOrigin(request({ host }))).toBeUndefined();
      }
    });

    it('refuses other hosts, a configured host on another port, and a missing Host', () => {
      expect(guard.checkOrigin(request({ host: 'evil.example:8080' }))).toEqual({
        status: 403,
        code: -32000,
        message: "Forbidden: Host 'evil.example:8080' is not allowed (DNS rebinding protection).",
      });
      expect(guard.checkOrigin(request({ host: 'proxy.example:9999' }))?.status).toBe(403);
      expect(guard.checkOrigin(request({ host: '127.0.0.1.evil.example' }))?.status).toBe(403);
      expect(guard.checkOrigin(request({}))).toEqual({
        status: 400,
        code: -32600,
        message: 'Bad Request: the Host header is missing.',
      });
    });

    it("accepts the server's own loopback origins and configured ones; refuses others and 'null'", () => {
      const host = '127.0.0.1:8080';
      for (const origin of [
        'http://127.0.0.1:8080',
        'http://localhost:8080',
        'http://[::1]:8080',
        'https://console.example.com',
        'HTTPS://Console.Example.com/',
      ]) {
        expect(guard.checkOrigin(request({ host, origin }))).toBeUndefined();
      }
      for (const origin of [
        'http://127.0.0.1:8081',
        'https://127.0.0.1:8080',
        'https://evil.example',
        'null',
      ]) {
        expect(guard.checkOrigin(request({ host, origin }))).toEqual({
          status: 403,
          code: -32000,
          message: `Forbidden: Origin '${origin}' is not allowed.`,
        });
      }
    });

    it("allows any origin with allowedOrigins '*'", () => {
      const open = new RequestGuard({ port: 1, listenHostname: '127.0.0.1', allowedOrigins: '*' });
      expect(
        open.checkOrigin(request({ host: '127.0.0.1:1', origin: 'https://anything.example' })),
      ).toBeUndefined();
    });
  });

  describe('with a publicUrl', () => {
    const behindProxy = new RequestGuard({
      port: 8080,
      listenHostname: '0.0.0.0',
      publicUrl: new URL('https://Agent.Example.com/agents/crm'),
    });
    const onPort = new RequestGuard({
      port: 8080,
      listenHostname: '127.0.0.1',
      publicUrl: new URL('http://lb.internal:9000'),
    });

    it("accepts the public host (with or without the scheme's default port) like the server's own", () => {
      for (const host of ['agent.example.com', 'AGENT.example.com:443', '0.0.0.0:8080', '127.0.0.1:8080']) {
        expect(behindProxy.checkOrigin(request({ host }))).toBeUndefined();
      }
      expect(onPort.checkOrigin(request({ host: 'lb.internal:9000' }))).toBeUndefined();
    });

    it('refuses every other host, and the public host on another port', () => {
      for (const host of [
        'agent.example.com:8443',
        'evil.example',
        'example.com',
        'agent.example.com.evil.example',
      ]) {
        expect(behindProxy.checkOrigin(request({ host }))).toEqual({
          status: 403,
          code: -32000,
          message: `Forbidden: Host '${host}' is not allowed (DNS rebinding protection).`,
        });
      }
      for (const host of ['lb.internal', 'lb.internal:80', 'lb.internal:9001']) {
        expect(onPort.checkOrigin(request({ host }))?.status).toBe(403);
      }
    });

    it('accepts a loopback public URL under every loopback name at its port, and no other port', () => {
      const localProxy = new RequestGuard({
        port: 8080,
        listenHostname: '127.0.0.1',
        publicUrl: new URL('http://localhost:9000'),
      });
      for (const origin of ['http://localhost:9000', 'http://127.0.0.1:9000', 'http://[::1]:9000']) {
        expect(localProxy.checkOrigin(request({ host: '127.0.0.1:9000', origin }))).toBeUndefined();
      }
      for (const origin of ['http://127.0.0.1:9001', 'https://localhost:9000', 'http://localhost']) {
        expect(localProxy.checkOrigin(request({ host: '127.0.0.1:9000', origin }))).toEqual({
          status: 403,
          code: -32000,
          message: `Forbidden: Origin '${origin}' is not allowed.`,
        });
      }
    });

    it('accepts the public origin and refuses others', () => {
      const host = 'agent.example.com';
      expect(behindProxy.checkOrigin(request({ host, origin: 'https://agent.example.com' }))).toBeUndefined();
      expect(
        behindProxy.checkOrigin(request({ host, origin: 'https://agent.example.com:443' })),
      ).toBeUndefined();
      for (const origin of [
        'http://agent.example.com',
        'https://agent.example.com:8443',
        'https://evil.example',
      ]) {
        expect(behindProxy.checkOrigin(request({ host, origin }))?.message).toBe(
          `Forbidden: Origin '${origin}' is not allowed.`,
        );
      }
    });
  });

  describe('isListenUrl', () => {
    it('is true for the listen address and loopback names at its port, with no path', () => {
      const listening = new RequestGuard({ port: 8080, listenHostname: '0.0.0.0' });
      for (const url of [
        'http://0.0.0.0:8080',
        'http://127.0.0.1:8080/',
        'http://localhost:8080',
        'http://[::1]:8080',
      ]) {
        expect(listening.isListenUrl(url)).toBe(true);
      }
      for (const url of [
        'http://127.0.0.1:8081',
        'https://127.0.0.1:8080',
        'http://127.0.0.1:8080/agent',
        'https://agent.example.com',
        'not a url',
      ]) {
        expect(listening.isListenUrl(url)).toBe(false);
      }
    });
  });

  describe('checkToken', () => {
    it('accepts the exact bearer token, case-insensitive scheme', () => {
      expect(guard.checkToken(request({ authorization: 'Bearer tok' }))).toBeUndefined();
      expect(guard.checkToken(request({ authorization: 'bearer tok' }))).toBeUndefined();
    });

    it('refuses a missing or malformed header with a challenge, and a wrong token as invalid_token', () => {
      for (const authorization of [undefined, '', 'tok', 'Basic dG9r', 'Bearer', 'Bearer tok extra']) {
        expect(guard.checkToken(request({ authorization }))).toEqual({
          status: 401,
          code: -32001,
          message: 'Unauthorized: send the header "Authorization: Bearer <token>".',
          headers: { 'www-authenticate': 'Bearer realm="protolink"' },
        });
      }
      for (const authorization of ['Bearer to', 'Bearer tokk', 'Bearer TOK']) {
        expect(guard.checkToken(request({ authorization }))?.headers).toEqual({
          'www-authenticate': 'Bearer realm="protolink", error="invalid_token"',
        });
      }
    });

    it('requires nothing when no token is configured', () => {
      expect(
        new RequestGuard({ port: 1, listenHostname: '127.0.0.1' }).checkToken(request({})),
      ).toBeUndefined();
    });
  });
});
