// Sample 03: the offline built-ins — calculator (Python arithmetic, no eval) and current_datetime (IANA zones).
// Run: npx ts-node --transpile-only samples/03-builtins/calculator-and-clock.ts
import { ToolInputError, calculator, currentDatetime } from '../../lib/index';

async function showCalculations(): Promise<void> {
  const tool = calculator();
  console.log(
    `${tool.name} (capabilities: ${tool.capabilities.length === 0 ? 'none' : tool.capabilities.join(', ')})`,
  );
  const expressions = [
    '(18 + 6) / 3', // true division gives a float: 8 (Python prints 8.0)
    '-7 // 2', // floors toward -infinity: -4
    '-7 % 3', // takes the sign of the divisor: 2
    '-2**2', // ** binds tighter than unary minus: -4
    '2**3**2', // right-associative: 512
    '2**-1', // int ** negative int is a float: 0.5
    '2**62 + 1 - 2**62', // integers are exact while computing: 1
    '0.1 + 0.2', // floats are IEEE doubles, as in Python
    '1 / 0', // rejected: cannot divide by zero
    '(-8) ** (1/3)', // rejected: complex result
    'pi * 2', // rejected: no names, functions or attribute access
    '2**100', // exact: 1267650600228229401496703205376 (past 2**53 - 1, returned as a string of digits)
  ];
  for (const expression of expressions) {
    try {
      const { result } = (await tool.call({ expression })) as { result: number | string };
      console.log(`  ${expression.padEnd(20)} = ${result}`);
    } catch (error) {
      if (!(error instanceof ToolInputError)) throw error;
      console.log(`  ${expression.padEnd(20)} ! ${error.message}`);
    }
  }
}

async function showClocks(): Promise<void> {
  const tool = currentDatetime();
  console.log(`\n${tool.name}, now:`);
  for (const timezone of ['UTC', 'Europe/Zurich', 'America/New_York', 'Asia/Kolkata', 'Asia/Kathmandu']) {
    const now = (await tool.call({ timezone })) as { iso8601: string; weekday: string };
    console.log(`  ${timezone.padEnd(17)} ${now.iso8601}  ${now.weekday}`);
  }

  // An injected clock makes the daylight-saving switch in New York reproducible.
  console.log('\nAmerica/New_York around the 2026 spring-forward switch (fixed clock):');
  for (const instant of ['2026-03-08T06:59:59Z', '2026-03-08T07:00:00Z']) {
    const fixed = currentDatetime({ clock: () => new Date(instant) });
    const at = (await fixed.call({ timezone: 'America/New_York' })) as {
      iso8601: string;
      utc_offset: string;
    };
    console.log(`  ${instant} -> ${at.iso8601} (offset ${at.utc_offset})`);
  }

  try {
    await tool.call({ timezone: '+02:00' });
  } catch (error) {
    if (!(error instanceof ToolInputError)) throw error;
    console.log(`\n  '+02:00' ! ${error.message}`);
  }
}

async function main(): Promise<void> {
  await showCalculations();
  await showClocks();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
