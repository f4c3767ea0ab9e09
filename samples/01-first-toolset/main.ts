// Sample 01: a decorated toolset end to end — DTO schemas, coercing validation, DTO instances, errors.
// Run: npx ts-node --transpile-only samples/01-first-toolset/main.ts
import 'reflect-metadata';
import { IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { Description, Param, Tool, ToolRegistry, Toolset, ToolValidationError } from '../../lib/index';

class BookingRequest {
  @IsString() @Description('City of the hotel') location!: string;
  @IsInt() @Min(1) @Max(8) guests!: number;
  @IsOptional() @IsString() @Length(0, 200) notes?: string;
}

class BookingStore {
  private next = 1;
  save(booking: BookingRequest): string {
    return `BK-${this.next++}-${booking.location.toUpperCase()}`;
  }
}

@Toolset({ tags: ['travel'] })
class TravelTools {
  constructor(private readonly store: BookingStore) {}

  @Tool({ name: 'book_hotel', description: 'Book a hotel room', capabilities: ['records.write'] })
  async bookHotel(@Param('booking') booking: BookingRequest): Promise<{ id: string; isDto: boolean }> {
    return { id: this.store.save(booking), isDto: booking instanceof BookingRequest };
  }

  @Tool({ name: 'add', description: 'Add two integers' })
  add(@Param('a', { type: 'integer' }) a: number, @Param('b', { type: 'integer' }) b: number): number {
    return a + b;
  }
}

async function main(): Promise<void> {
  const registry = new ToolRegistry();
  registry.registerAll(new TravelTools(new BookingStore()));

  console.log('Tools:', registry.names().join(', '));
  console.log('book_hotel input schema:');
  console.log(JSON.stringify(registry.resolve('book_hotel').inputSchema, null, 2));

  // A model sends strings for numbers: they are coerced conservatively, and the method gets a DTO instance.
  console.log('add("2", 3) =', await registry.resolve('add').call({ a: '2', b: 3 }));
  console.log(
    'book_hotel =',
    await registry.resolve('book_hotel').call({ booking: { location: 'Athens', guests: '2' } }),
  );

  // Bad input never reaches the method: one error lists every problem with its path.
  try {
    await registry.resolve('book_hotel').call({ booking: { guests: 0, pets: true } });
  } catch (error) {
    if (error instanceof ToolValidationError)
      console.log('Rejected:', error.issues.map((issue) => `${issue.path}: ${issue.message}`).join(' | '));
    else throw error;
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
