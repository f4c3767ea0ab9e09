// Sample 06: function calling. Prints the declarations OpenAI (strict), Anthropic and Gemini receive for
// one DTO tool, then runs the tool loop: against a real model when OPENAI_API_KEY, ANTHROPIC_API_KEY or
// GEMINI_API_KEY/GOOGLE_API_KEY is set, otherwise against a ScriptedLLM (fully offline).
// Run: npx ts-node --transpile-only samples/06-function-calling/main.ts
import 'reflect-metadata';
import { IsEnum, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { Agent, CapabilityPolicy, Description, Param, RunContext, Tool } from '../../lib/index';
import type { LLM } from '../../lib/llm/llm';
import { AnthropicLLM } from '../../lib/llm/providers/anthropic-llm';
import { GeminiLLM } from '../../lib/llm/providers/gemini-llm';
import { OpenAIChatLLM } from '../../lib/llm/providers/openai-chat-llm';
import { runToolLoop } from '../../lib/llm/run-tool-loop';
import { ScriptedLLM } from '../../lib/llm/scripted-llm';
import { toAnthropicTools } from '../../lib/llm/to-anthropic-tools';
import { toGeminiTools } from '../../lib/llm/to-gemini-tools';
import { toOpenAITools } from '../../lib/llm/to-openai-tools';

enum RoomKind {
  Single = 'single',
  Double = 'double',
}

class BookingRequest {
  @IsString() @Description('City of the hotel') city!: string;
  @IsInt() @Min(1) @Max(8) guests!: number;
  @IsOptional() @IsEnum(RoomKind) room?: RoomKind;
  @IsOptional() @IsString() @Length(0, 200) notes?: string;
}

class HotelDesk {
  private next = 1;

  @Tool({ name: 'book_hotel', description: 'Book a hotel room', capabilities: ['records.write'] })
  book(@Param('booking') booking: BookingRequest): {
    id: string;
    city: string;
    guests: number;
    room: string;
  } {
    return {
      id: `BK-${this.next++}`,
      city: booking.city,
      guests: booking.guests,
      room: booking.room ?? 'any',
    };
  }

  @Tool({
    name: 'cancel_all_bookings',
    description: 'Cancel every booking',
    capabilities: ['records.delete'],
  })
  cancelAll(): string {
    return 'all bookings canceled';
  }
}

/** Picks a real model when a key is set; otherwise a script that shows repair after a validation error. */
function chooseModel(): LLM {
  if (process.env.OPENAI_API_KEY)
    return new OpenAIChatLLM({ model: process.env.OPENAI_MODEL ?? 'gpt-4o-mini' });
  if (process.env.ANTHROPIC_API_KEY)
    return new AnthropicLLM({ model: process.env.ANTHROPIC_MODEL ?? 'claude-haiku-4-5' });
  if (process.env.GEMINI_API_KEY || process.env.GOOGLE_API_KEY)
    return new GeminiLLM({ model: process.env.GEMINI_MODEL ?? 'gemini-2.5-flash' });
  return new ScriptedLLM([
    // Strict mode sends every key: optional ones as null. guests: 0 breaks @Min(1), and the denied tool is tried too.
    {
      toolCalls: [
        {
          name: 'book_hotel',
          arguments: '{"booking":{"city":"Lisbon","guests":0,"room":null,"notes":null}}',
        },
        { name: 'cancel_all_bookings', arguments: '{}' },
      ],
    },
    // The model reads the structured problem and repairs the call.
    {
      toolCalls: [
        {
          name: 'book_hotel',
          arguments: '{"booking":{"city":"Lisbon","guests":2,"room":"double","notes":null}}',
        },
      ],
    },
    { text: 'Booked a double room in Lisbon for 2 (BK-1). I am not allowed to cancel all bookings.' },
  ]);
}

async function main(): Promise<void> {
  const agent = new Agent({
    card: { name: 'hotel-desk', description: 'Books hotels', url: 'http://127.0.0.1:8080' },
    policy: new CapabilityPolicy({ 'records.delete': 'deny' }),
    toolsets: [new HotelDesk()],
  });

  console.log('OpenAI (strict) declaration of book_hotel:');
  console.log(JSON.stringify(toOpenAITools(agent)[0], null, 2));
  console.log('Anthropic declaration of book_hotel:');
  console.log(JSON.stringify(toAnthropicTools(agent)[0], null, 2));
  console.log('Gemini declaration of book_hotel:');
  console.log(JSON.stringify(toGeminiTools(agent)[0].functionDeclarations[0], null, 2));

  const llm = chooseModel();
  console.log(`\nRunning the tool loop with ${llm.provider} (${llm.model})…`);
  const context = new RunContext({ budget: { maxSteps: 6, maxToolCalls: 5 } });
  const result = await runToolLoop(
    agent,
    'Book a double room in Lisbon for two, then cancel all other bookings.',
    {
      llm,
      context,
      system: 'You are a hotel desk. Use the tools; never invent booking ids.',
      onEvent: (event) => {
        if (event.type === 'llm-call-end')
          console.log(`  model step ${event.step}: ${event.toolCallCount} tool call(s)`);
      },
    },
  );
  for (const call of result.toolCalls) {
    const outcome =
      call.status === 'ok' ? JSON.stringify(call.result) : `${call.error?.type}: ${call.error?.message}`;
    console.log(`  step ${call.step} ${call.name} → ${call.status} (${outcome})`);
  }
  console.log(`Answer: ${result.text}`);
  console.log(`Usage: ${JSON.stringify(result.usage)}; context usage: ${JSON.stringify(context.usage)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
