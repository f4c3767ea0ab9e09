// Sample 03: fetch_url against a local server, offline. The test seams map a public-looking name to a
// public address (which passes validation) and connect that address to a server on 127.0.0.1.
// Run: npx ts-node --transpile-only samples/03-builtins/fetch-local.ts
import * as http from 'node:http';
import * as net from 'node:net';
import { ProtolinkError } from '../../lib/errors/protolink-error';
import { fetchUrl } from '../../lib/index';

const PUBLIC_ADDRESS = '93.184.216.34';

const PAGE = `<!doctype html><html><head><title>Protolink local page</title><script>ignored()</script></head>
<body><h1>Hello from 127.0.0.1</h1><p>This page was fetched through <b>fetch_url</b>.</p>
<ul><li>validated address</li><li>identity encoding</li></ul></body></html>`;

async function main(): Promise<void> {
  const server = http.createServer((request, response) => {
    if (request.url === '/moved') {
      response.writeHead(302, { location: '/' });
      response.end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;

  const tool = fetchUrl({
    // Test seams only: in production neither is set (OS resolver, direct connection to the validated address).
    resolver: async (hostname) => (hostname === 'docs.example' ? [PUBLIC_ADDRESS] : []),
    connector: (target) => {
      console.log(
        `connector: ${target.hostname} -> validated ${target.address}:${target.port} (tls ${target.tls})`,
      );
      return net.connect(port, '127.0.0.1');
    },
  });

  try {
    const result = await tool.call({ url: 'http://docs.example/moved', max_chars: 500 });
    console.log(JSON.stringify(result, null, 2));
    for (const url of [
      'http://127.0.0.1/',
      'http://[::ffff:127.0.0.1]/',
      'http://docs.example:8080/',
      'file:///etc/passwd',
    ]) {
      await tool
        .call({ url })
        .catch((error: ProtolinkError) => console.log(`${error.name} (${error.code}): ${error.message}`));
    }
  } finally {
    server.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
