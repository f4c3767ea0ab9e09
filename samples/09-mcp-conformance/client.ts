// Sample 09 (client): an MCP client built on MCPToolAdapter, for the official MCP conformance suite's client
// scenarios. The suite starts a scenario server and runs this program with the server URL as its last argument,
// the scenario name in MCP_CONFORMANCE_SCENARIO and per-scenario data (client credentials) as JSON in
// MCP_CONFORMANCE_CONTEXT.
// Check it:   npx @modelcontextprotocol/conformance client --command "npx ts-node samples/09-mcp-conformance/client.ts" \
//               --scenario auth/metadata-default   (Node >= 22)
// It signs in headlessly: the suite's authorization endpoint approves at once, so onAuthorizationUrl fetches the
// authorization URL without following the redirect and returns the `code` of its Location.
import { MCPToolAdapter } from '../../lib/mcp/client';
import type { MCPAuthOptions, MCPToolInfo } from '../../lib/mcp/client';

/** The client metadata document URL the suite accepts as client id where the server supports SEP-991. */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

interface ScenarioContext {
  name?: string;
  client_id?: string;
  client_secret?: string;
  private_key_pem?: string;
  signing_algorithm?: string;
}

/** Follows one step of an auto-approving authorization endpoint and returns the code it redirects with. */
async function approveHeadlessly(authorizationUrl: URL): Promise<string> {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  await response.body?.cancel();
  const location = response.headers.get('location');
  if (!location) throw new Error(`the authorization endpoint answered ${response.status} without a redirect`);
  const redirect = new URL(location, authorizationUrl);
  const sentState = authorizationUrl.searchParams.get('state');
  if (sentState !== null && redirect.searchParams.get('state') !== sentState) {
    throw new Error('the redirect carried another state than the authorization request');
  }
  const code = redirect.searchParams.get('code');
  if (!code)
    throw new Error(`the redirect has no code (error: ${redirect.searchParams.get('error') ?? 'none'})`);
  return code;
}

/** The sign-in options a scenario calls for. */
function toAuthOptions(scenario: string, context: ScenarioContext): MCPAuthOptions {
  if (scenario === 'auth/client-credentials-basic') {
    return { grant: 'client_credentials', clientId: context.client_id, clientSecret: context.client_secret };
  }
  if (scenario === 'auth/client-credentials-jwt') {
    return {
      grant: 'client_credentials',
      clientId: context.client_id,
      privateKey: context.private_key_pem,
      signingAlgorithm: context.signing_algorithm ?? 'ES256',
    };
  }
  const interactive: MCPAuthOptions = {
    clientName: 'protolink-conformance-client',
    redirectUrl: 'http://localhost:3000/callback',
    onAuthorizationUrl: approveHeadlessly,
  };
  if (context.client_id !== undefined) {
    // Pre-registered credentials: no registration, no metadata document.
    return { ...interactive, clientId: context.client_id, clientSecret: context.client_secret };
  }
  return { ...interactive, clientMetadataUrl: CLIENT_METADATA_URL };
}

/** Arguments that satisfy a tool's required fields (numbers, strings, booleans), for a smoke call. */
function sampleArguments(tool: MCPToolInfo): Record<string, unknown> {
  const schema = tool.inputSchema as { properties?: Record<string, { type?: unknown }>; required?: string[] };
  const args: Record<string, unknown> = {};
  for (const name of schema.required ?? []) {
    const type = schema.properties?.[name]?.type;
    args[name] = type === 'number' || type === 'integer' ? 1 : type === 'boolean' ? true : 'test';
  }
  return args;
}

async function main(): Promise<void> {
  const url = process.argv[process.argv.length - 1];
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as ScenarioContext;
  const adapter = new MCPToolAdapter({
    transport: 'http',
    url,
    serverName: 'conformance',
    auth: toAuthOptions(scenario, context),
    // Accepts with no content: the schema's defaults fill every field (SEP-1034).
    elicitationHandler: () => ({ action: 'accept', content: {} }),
    samplingHandler: (request) => ({
      role: 'assistant',
      content: { type: 'text', text: `A sampled answer to ${request.messages.length} message(s).` },
      model: 'protolink-conformance',
      stopReason: 'endTurn',
    }),
  });
  try {
    const tools = await adapter.listTools();
    for (const tool of tools) {
      const result = await tool.callable(sampleArguments(tool));
      console.log(`${tool.name}: ${JSON.stringify(result)}`);
    }
  } finally {
    await adapter.close();
  }
}

main().catch((error: unknown) => {
  console.error(
    `conformance client (${process.env.MCP_CONFORMANCE_SCENARIO ?? 'no scenario'}) failed:`,
    error instanceof Error ? error.message : error,
  );
  process.exitCode = 1;
});
