// Quickstart (`npm start`): a decorated toolset, its JSON Schema, coercing validation and a rejected call.
// Offline, a few seconds. Each later sample goes deeper into one idea.
import 'reflect-metadata';
import { IsInt, IsString, Max, Min } from 'class-validator';
import { Description, Param, Tool, ToolRegistry, Toolset, ToolValidationError } from '../../lib/index';

class BookingRequest {
  @IsString() @Description('City of the hotel') location!: string;
  @IsInt() @Min(1) @Max(8) guests!: number;
}

@Toolset({ tags: ['travel'] })
class TravelTools {
  @Tool({ name: 'book_hotel', description: 'Book a hotel room', capabilities: ['records.write'] })
  bookHotel(@Param('booking') booking: BookingRequest): string {
    return `Booked ${booking.guests} guest(s) in ${booking.location}`;
  }

  @Tool({ name: 'add', description: 'Add two integers' })
  add(@Param('a', { type: 'integer' }) a: number, @Param('b', { type: 'integer' }) b: number): number {
    return a + b;
  }
}

function section(title: string): void {
  console.log(`\n== ${title} ${'='.repeat(Math.max(0, 60 - title.length))}`);
}

async function main(): Promise<void> {
  const registry = new ToolRegistry();
  registry.registerAll(new TravelTools());

  section('A decorated toolset');
  for (const tool of registry.list()) {
    console.log(
      `- ${tool.name}: ${tool.description} (capabilities: ${tool.capabilities?.join(', ') || 'none'})`,
    );
  }
  console.log('add input schema:', JSON.stringify(registry.resolve('add').inputSchema));

  section('Validation');
  console.log('add({ a: "2", b: 3 }) =', await registry.resolve('add').call({ a: '2', b: 3 }));
  console.log(
    'book_hotel =',
    await registry.resolve('book_hotel').call({ booking: { location: 'Athens', guests: '2' } }),
  );
  try {
    await registry.resolve('book_hotel').call({ booking: { location: 'Athens', guests: 0 } });
  } catch (error) {
    if (!(error instanceof ToolValidationError)) throw error;
    console.log(
      'rejected before the method ran:',
      error.issues.map((issue) => `${issue.path}: ${issue.message}`).join('; '),
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
