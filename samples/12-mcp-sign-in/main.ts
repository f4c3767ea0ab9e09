// Sample 12: an MCP server that needs sign-in, reached end to end with MCPToolAdapter's `auth` option.
// Run it:   npx ts-node samples/12-mcp-sign-in/main.ts   (offline: everything listens on 127.0.0.1)
// It starts protected-server.ts (the MCP SDK's authorization server router and bearer middleware), signs in
// with the OAuth 2.1 code flow (discovery, registration, PKCE), keeps the tokens in a FileTokenStore (mode 0600),
// steps up to the `admin` scope for one tool, and shows that a second adapter reuses the stored tokens.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileTokenStore, MCPSignInRequiredError, MCPToolAdapter } from '../../lib/mcp/client';
import { startProtectedMcpServer } from './protected-server';

async function main(): Promise<void> {
  const server = await startProtectedMcpServer();
  const directory = mkdtempSync(join(tmpdir(), 'protolink-sample-12-'));
  const tokenStore = new FileTokenStore({ directory });
  try {
    // Without a way to get a code, a protected server fails with the next step to take.
    const anonymous = new MCPToolAdapter({
      transport: 'http',
      url: server.url,
      serverName: 'notes',
      auth: {},
    });
    await anonymous.listTools().catch((error: unknown) => {
      if (!(error instanceof MCPSignInRequiredError)) throw error;
      console.log(`Without sign-in: ${error.name}: ${error.message.split('. ')[0]}.`);
    });

    const adapter = new MCPToolAdapter({
      transport: 'http',
      url: server.url,
      serverName: 'notes',
      auth: {
        tokenStore,
        // A real application opens this URL in a browser and waits for the redirect with the code
        // (`protolink mcp login` does it with a loopback listener). This server approves at once.
        onAuthorizationUrl: async (authorizationUrl) => {
          console.log(
            `Sign in at: ${authorizationUrl.origin}${authorizationUrl.pathname} (scope: ${authorizationUrl.searchParams.get('scope')})`,
          );
          const response = await fetch(authorizationUrl, { redirect: 'manual' });
          return new URL(response.headers.get('location') as string).searchParams.get('code') as string;
        },
      },
    });
    console.log(`whoami -> ${String(await adapter.getCallable('whoami')())}`);
    console.log(`admin_action -> ${String(await adapter.getCallable('admin_action')())}`);
    const [file] = readdirSync(directory);
    console.log(
      `Tokens kept in one file per server, mode ${(statSync(join(directory, file)).mode & 0o777).toString(8)}.`,
    );
    await adapter.close();

    const later = new MCPToolAdapter({
      transport: 'http',
      url: server.url,
      serverName: 'notes',
      auth: { tokenStore },
    });
    console.log(
      `A second adapter on the same store: whoami -> ${String(await later.getCallable('whoami')())}`,
    );
    await later.close();
    console.log(
      `Authorizations asked for: ${server.authorizations.map((scopes) => scopes.join(' ')).join(' | ')}`,
    );
  } finally {
    rmSync(directory, { recursive: true, force: true });
    await server.close();
  }
}

void main();
