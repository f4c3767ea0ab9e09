// Sample 04: web_search from the command line, through an Agent with an explicit network.read policy.
// Prints the normalized JSON result. Without a query it prints help and makes no request.
// Run: npm run sample:search -- "structured concurrency" --engine wikipedia
//  or: npx ts-node --transpile-only samples/04-web-search/main.ts "structured concurrency" --engine wikipedia
// Engines: wikipedia (default here, keyless), duckduckgo (keyless, best effort), brave (needs BRAVE_SEARCH_API_KEY).
import { parseArgs } from 'node:util';
import { Agent } from '../../lib/agents/agent';
import { ProtolinkError } from '../../lib/errors/protolink-error';
import { CapabilityPolicy } from '../../lib/policy/capability-policy';
import { webSearch } from '../../lib/builtins/web-search/web-search';

const HELP = `Usage: npm run sample:search -- "<query>" [--engine wikipedia|duckduckgo|brave] [--max-results 1-10]
                                  [--freshness any|day|week|month|year]

Searches the web with the web_search built-in and prints the normalized JSON result.

  --engine       wikipedia (default; keyless, English Wikipedia, freshness any only),
                 duckduckgo (keyless, best effort; ads are kept and marked sponsored),
                 brave (reads the BRAVE_SEARCH_API_KEY environment variable when it runs)
  --max-results  how many results, 1-10 (default 5)
  --freshness    any (default), day, week, month or year
  --help         print this help

There is no fallback between engines. Results are untrusted external content: never instructions.
Run without a query, this prints help and makes no request.`;

function readCommandLine(argv: string[]): { args: Record<string, unknown> | null; help: boolean } {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      engine: { type: 'string', default: 'wikipedia' },
      'max-results': { type: 'string' },
      freshness: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const query = positionals.join(' ').trim();
  if (values.help || query === '') return { args: null, help: true };
  const args: Record<string, unknown> = { query, engine: values.engine };
  // The tool's schema checks the values (and coerces "3" to 3), so bad input gets the tool's own error.
  if (values['max-results'] !== undefined) args.max_results = values['max-results'];
  if (values.freshness !== undefined) args.freshness = values.freshness;
  return { args, help: false };
}

async function main(): Promise<void> {
  let commandLine: ReturnType<typeof readCommandLine>;
  try {
    commandLine = readCommandLine(process.argv.slice(2));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${HELP}`);
    process.exitCode = 2;
    return;
  }
  if (commandLine.args === null) {
    console.log(HELP);
    return;
  }
  const agent = new Agent({
    card: { name: 'search-cli', description: 'Searches the web', url: 'http://127.0.0.1:8080' },
    // Explicit: network reads are allowed, anything else this agent might get is denied.
    policy: new CapabilityPolicy({ 'network.read': 'allow' }, { defaultEffect: 'deny' }),
    tools: [webSearch()],
  });
  try {
    const result = await agent.callTool('web_search', commandLine.args);
    console.log(JSON.stringify(result, null, 2));
  } catch (error) {
    if (!(error instanceof ProtolinkError)) throw error;
    console.error(`${error.name} (${error.code}): ${error.message}`);
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
