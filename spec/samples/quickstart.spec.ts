import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const root = join(__dirname, '../..');

describe('npm start (samples/00-quickstart)', () => {
  it('runs offline and prints every section a newcomer should see', async () => {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', 'samples/00-quickstart/main.ts'],
      { cwd: root, timeout: 60_000 },
    );
    expect(stderr).toBe('');
    const sections = stdout.split('\n').filter((line) => line.startsWith('== '));
    expect(sections.map((line) => line.replace(/ =+$/, ''))).toEqual([
      '== 1. A decorated toolset (class-validator DTOs -> JSON Schema)',
      '== 2. Built-in tools',
      '== 3. An MCP server (samples/05-mcp/server.ts) over stdio',
      '== 4. A call the policy denies (network.* is denied)',
      '== 5. A call that needs approval (records.write)',
      '== 6. book_hotel declared for each model provider',
    ]);
    expect(stdout).toContain('add({ a: "2", b: 3 }) -> 5');
    expect(stdout).toContain(
      'book_hotel with guests: 0 -> ToolValidationError: booking.guests: must be >= 1',
    );
    expect(stdout).toContain('calculator("2 ** 10 // 3") -> {"expression":"2 ** 10 // 3","result":341}');
    expect(stdout).toContain('calculator("1 / 0") -> ToolInputError: calculator cannot divide by zero');
    expect(stdout).toContain('current_datetime("Asia/Kathmandu").utc_offset -> "+05:45"');
    expect(stdout).toMatch(/tools now: .*sample_multiply, sample_greet/);
    expect(stdout).toContain('sample_multiply({ a: 6, b: "7" }) on the MCP server -> "42"');
    expect(stdout).toContain('fetch_url("https://example.com") -> ActionDeniedError');
    expect(stdout).toContain(
      'approval requested for book_hotel; preview: "A room for 2 in Athens" -> approved',
    );
    expect(stdout).toContain('book_hotel(Athens, 2) -> "Booked 2 guest(s) in Athens"');
    expect(stdout).toMatch(/OpenAI \(strict\): \{"type":"function","function":\{"name":"book_hotel"/);
    expect(stdout).toMatch(/Anthropic: +\{"name":"book_hotel".*"input_schema"/);
    expect(stdout).toMatch(/Gemini: +\{"functionDeclarations":\[\{"name":"book_hotel"/);
  });
});
