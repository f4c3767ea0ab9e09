import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const root = join(__dirname, '../..');
const run = promisify(execFile);

/** Each runnable sample (04-web-search has its own spec: it needs the network blocked) and a line it must print. */
const samples: [string, RegExp][] = [
  ['01-first-toolset/main.ts', /book_hotel = \{ id: 'BK-1-ATHENS', isDto: true \}/],
  ['02-policy-and-approval/main.ts', /Published: r-1/],
  ['03-builtins/calculator-and-clock.ts', /'\+02:00' ! current_datetime: '\+02:00' is a UTC offset/],
  [
    '03-builtins/fetch-local.ts',
    /UnsafeUrlError \(UNSAFE_URL\): fetch_url: refused to fetch 'file:\/\/\/etc\/passwd'/,
  ],
  ['05-mcp/main.ts', /add\("five"\) -> ToolValidationError \(never sent to the server\)/],
  ['06-function-calling/main.ts', /Answer: Booked a double room in Lisbon/],
  ['07-serve/main.ts', /Server stopped\./],
  [
    '13-long-running-tasks/main.ts',
    /result: \[\{"type":"text","text":"Sales report for EMEA: 3 sections"\}\][\s\S]*refused before any task existed[\s\S]*crawl_site via MCPToolAdapter -> ToolCancelledError[\s\S]*startTool result: Sales report for APAC: 3 sections \(completed\)\nServer stopped\./,
  ],
  ['08-nestjs/main.ts', /withdraw_stock\(pear, 50\) refused: ActionDeniedError/],
  [
    '14-nest-resources-and-prompts/main.ts',
    /complete folder "i": inbox, ideas\nplan_day messages: resource, text\nnotes:\/\/private\/diary refused: MCP error -32003: Action 'notes:\/\/private\/diary' denied/,
  ],
  [
    '11-approval-in-inspector/main.ts',
    /delete_file\(draft\.md\) → deleted draft\.md\n[\s\S]*delete_file\(notes\.txt\) → refused: Action 'delete_file' denied: the user chose decline\nFiles left: notes\.txt, old-report\.pdf\nServer stopped\./,
  ],
  [
    '12-mcp-sign-in/main.ts',
    /admin_action -> admin action done[\s\S]*same store: whoami -> signed in with scopes: mcp admin/,
  ],
  [
    '10-frameworks/main.ts',
    /Approved and run: .*published[\s\S]*LangChain: 3 \+ 4 = 7\nOpenAI Agents: 3 \+ 4 = 7/,
  ],
  [
    '10-frameworks/openai-client.ts',
    /Tool calls: add\nHTTP requests \(one 503 retried by the client\): 3\nAnswer: 3 \+ 4 = 7/,
  ],
];

function runSample(sample: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return run(process.execPath, ['-r', 'ts-node/register/transpile-only', join('samples', sample)], {
    cwd: root,
    timeout: 180_000,
    env: {
      ...process.env,
      OPENAI_API_KEY: '',
      ANTHROPIC_API_KEY: '',
      GEMINI_API_KEY: '',
      GOOGLE_API_KEY: '',
    },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      code: error.code ?? -1,
      stdout: error.stdout ?? '',
      stderr: error.stderr ?? String(error),
    }),
  );
}

describe('samples', () => {
  // Two at a time: each is a process (some start child servers through ts-node) on a 2-core machine.
  const results = new Map<string, Promise<{ code: number; stdout: string; stderr: string }>>();
  const lanes = [Promise.resolve(), Promise.resolve()];
  samples.forEach(([sample], index) => {
    const lane = index % lanes.length;
    const result = lanes[lane].then(() => runSample(sample));
    lanes[lane] = result.then(() => undefined);
    results.set(sample, result);
  });

  it.each(samples)(
    '%s runs offline, exits 0 and prints what it shows',
    async (sample, expected) => {
      const result = await results.get(sample)!;
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
      expect(result.stdout).toMatch(expected);
    },
    300_000,
  );
});
