// Quickstart (`npm start`): everything Protolink does, offline, in a few seconds.
// 1. a decorated toolset   2. built-in tools   3. an MCP server's tools over stdio
// 4. a call the policy denies   5. a call a person must approve (the approver sees a preview)
// 6. the same tool declared for OpenAI, Anthropic and Gemini
import 'reflect-metadata';
import { join } from 'node:path';
import { IsInt, IsString, Max, Min } from 'class-validator';
import {
  Agent,
  ApprovalDecision,
  CapabilityPolicy,
  Description,
  Param,
  RunAction,
  Tool,
  ToolValidationError,
  Toolset,
  calculator,
  currentDatetime,
  fetchUrl,
  toAnthropicTools,
  toGeminiTools,
  toOpenAITools,
} from '../../lib/index';
import type { ApprovalRequest } from '../../lib/index';
import { MCPToolAdapter } from '../../lib/mcp/client';

class BookingRequest {
  @IsString() @Description('City of the hotel') location!: string;
  @IsInt() @Min(1) @Max(8) guests!: number;
}

@Toolset({ tags: ['travel'] })
class TravelTools {
  @Tool({
    name: 'book_hotel',
    description: 'Book a hotel room',
    capabilities: ['records.write'],
    // What the approver sees before anything happens.
    actionBuilder: (args) => {
      const booking = args.booking as BookingRequest;
      return new RunAction({
        kind: 'tool.call',
        name: 'book_hotel',
        payload: { arguments: args },
        artifacts: [{ kind: 'preview', content: `A room for ${booking.guests} in ${booking.location}` }],
      });
    },
  })
  bookHotel(@Param('booking') booking: BookingRequest): string {
    return `Booked ${booking.guests} guest(s) in ${booking.location}`;
  }

  @Tool({ name: 'add', description: 'Add two integers' })
  add(@Param('a', { type: 'integer' }) a: number, @Param('b', { type: 'integer' }) b: number): number {
    return a + b;
  }
}

function section(title: string): void {
  console.log(`\n== ${title} ${'='.repeat(Math.max(0, 66 - title.length))}`);
}

async function show(label: string, call: () => Promise<unknown>): Promise<void> {
  try {
    console.log(`${label} -> ${JSON.stringify(await call())}`);
  } catch (error) {
    const detail =
      error instanceof ToolValidationError
        ? error.issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')
        : (error as Error).message;
    console.log(`${label} -> ${(error as Error).name}: ${detail}`);
  }
}

function approve(request: ApprovalRequest): ApprovalDecision {
  const preview = request.action.artifacts.map((artifact) => String(artifact.content)).join('; ');
  console.log(`   approval requested for ${request.action.name}; preview: "${preview}" -> approved`);
  return new ApprovalDecision({ approved: true, requestId: request.requestId, decidedBy: 'quickstart' });
}

async function main(): Promise<void> {
  const agent = new Agent({
    card: { name: 'quickstart', description: 'Protolink quickstart agent', url: 'http://127.0.0.1:0' },
    policy: new CapabilityPolicy({ 'records.write': 'require_approval', 'network.*': 'deny' }),
    approvalHandler: approve,
    toolsets: [new TravelTools()],
    tools: [calculator(), currentDatetime(), fetchUrl()],
  });

  section('1. A decorated toolset (class-validator DTOs -> JSON Schema)');
  console.log('add input schema:', JSON.stringify(agent.getTool('add')!.inputSchema));
  await show('add({ a: "2", b: 3 })', () => agent.callTool('add', { a: '2', b: 3 }));
  await show('book_hotel with guests: 0', () =>
    agent.callTool('book_hotel', { booking: { location: 'Athens', guests: 0 } }),
  );

  section('2. Built-in tools');
  await show('calculator("2 ** 10 // 3")', () =>
    agent.callTool('calculator', { expression: '2 ** 10 // 3' }),
  );
  await show('calculator("1 / 0")', () => agent.callTool('calculator', { expression: '1 / 0' }));
  await show('current_datetime("Asia/Kathmandu").utc_offset', async () => {
    const now = (await agent.callTool('current_datetime', { timezone: 'Asia/Kathmandu' })) as {
      utc_offset: string;
    };
    return now.utc_offset;
  });

  section('3. An MCP server (samples/05-mcp/server.ts) over stdio');
  const mcp = new MCPToolAdapter({
    transport: 'stdio',
    command: process.execPath,
    args: ['-r', 'ts-node/register/transpile-only', join(__dirname, '..', '05-mcp', 'server.ts')],
    cwd: join(__dirname, '..', '..'),
    serverName: 'sample',
    // The server also has an `add`: a prefix keeps both (a tool from another source never replaces ours).
    namePrefix: 'sample_',
    connectTimeoutMs: 60_000, // the sample server is compiled by ts-node when it starts
  });
  try {
    for (const tool of await mcp.getTools()) agent.addTool(tool);
    console.log('tools now:', [...agent.tools.keys()].join(', '));
    await show('sample_multiply({ a: 6, b: "7" }) on the MCP server', () =>
      agent.callTool('sample_multiply', { a: 6, b: '7' }),
    );
  } finally {
    await mcp.close();
  }

  section('4. A call the policy denies (network.* is denied)');
  await show('fetch_url("https://example.com")', () =>
    agent.callTool('fetch_url', { url: 'https://example.com' }),
  );

  section('5. A call that needs approval (records.write)');
  await show('book_hotel(Athens, 2)', () =>
    agent.callTool('book_hotel', { booking: { location: 'Athens', guests: '2' } }),
  );

  section('6. book_hotel declared for each model provider');
  const bookHotel = [agent.getTool('book_hotel')!];
  console.log('OpenAI (strict):', JSON.stringify(toOpenAITools(bookHotel)[0]));
  console.log('Anthropic:      ', JSON.stringify(toAnthropicTools(bookHotel)[0]));
  console.log('Gemini:         ', JSON.stringify(toGeminiTools(bookHotel)[0]));
  console.log('\nNext: samples/01-first-toolset … samples/08-nestjs, and docs/getting-started.md.');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
