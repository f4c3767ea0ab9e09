import { join } from 'path';
import { Agent } from '../../../lib/agents/agent';
import { ToolDefinitionError } from '../../../lib/errors/tool-definition-error';
import { ToolValidationError } from '../../../lib/errors/tool-validation-error';
import { loadWithEsbuild } from '../../fixtures/toolsets/load-with-esbuild';

const FIXTURE = join(__dirname, '../../fixtures/toolsets/esbuild-booking-tools.ts');

const card = { name: 'bookings', description: 'Books hotels', url: 'runtime://bookings' };

describe('@Param without decorator metadata (esbuild)', () => {
  const { code, exports } = loadWithEsbuild(FIXTURE);

  it('compiles without emitting design:paramtypes, whatever tsconfig says', () => {
    expect(code).toContain('__decorateParam');
    expect(code).not.toContain('design:paramtypes');
  });

  it('says which tool and parameter lack a type, why, and the three ways out', () => {
    const register = () => new Agent({ card, toolsets: [new exports.UntypedBookingTools()] });
    expect(register).toThrow(ToolDefinitionError);
    expect(register).toThrow(
      "Tool 'book_hotel' (UntypedBookingTools.book): parameter 'booking' (#1) has no type, because the class was compiled without decorator metadata (esbuild and tsx never emit it, whatever tsconfig.json says; vitest emits it only from version 4 and with \"emitDecoratorMetadata\": true in tsconfig.json). Fix it one of three ways: " +
        "1) give the type explicitly, @Param('booking', { type: SomeDto }) (or { type: [SomeDto] } for an array, { type: 'string' } for a scalar); " +
        '2) compile with swc and jsc.transform.decoratorMetadata: true (with jsc.parser.decorators and legacyDecorator); ' +
        '3) compile with tsc ("experimentalDecorators" and "emitDecoratorMetadata" in tsconfig.json, and import \'reflect-metadata\').',
    );
  });

  describe('with an explicit type', () => {
    const agent = new Agent({ card, toolsets: [new exports.TypedBookingTools()] });

    it('builds the schema of a DTO parameter, its nested DTO included', () => {
      const schema = agent.getTool('book_hotel')!.inputSchema!;
      expect(schema.required).toEqual(['booking', 'nights']);
      expect(schema.properties!.nights).toEqual({ type: 'integer' });
      expect(schema.properties!.booking).toMatchObject({
        type: 'object',
        properties: {
          location: { type: 'string' },
          guests: { type: 'integer', minimum: 1 },
          billing: { type: 'object', properties: { city: { type: 'string', minLength: 2 } } },
        },
        required: ['location', 'guests', 'billing'],
        additionalProperties: false,
      });
    });

    it('validates and passes DTO instances, nested ones included', async () => {
      await expect(
        agent.callTool('book_hotel', {
          booking: { location: 'Athens', guests: '2', billing: { city: 'Paris' } },
          nights: 3,
        }),
      ).resolves.toEqual({ location: 'Athens', nights: 3, booking_is_dto: true, billing_is_dto: true });
    });

    it('lists every problem with its path, in the nested DTO too', async () => {
      const error = await agent
        .callTool('book_hotel', {
          booking: { location: 'Athens', guests: 0, billing: { city: 'P' } },
          nights: 1,
        })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolValidationError);
      expect((error as ToolValidationError).issues.map((issue) => issue.path).sort()).toEqual([
        'booking.billing.city',
        'booking.guests',
      ]);
    });

    it('takes an array of DTOs with { type: [Guest] }', async () => {
      const schema = agent.getTool('register_guests')!.inputSchema!;
      expect(schema.properties!.guests).toMatchObject({ type: 'array' });
      await expect(
        agent.callTool('register_guests', {
          guests: [
            { name: 'Ann', address: { city: 'Oslo' } },
            { name: 'Bo', address: { city: 'Rome' } },
          ],
        }),
      ).resolves.toEqual([
        { name: 'Ann', city: 'Oslo', is_dto: true },
        { name: 'Bo', city: 'Rome', is_dto: true },
      ]);
      const error = await agent
        .callTool('register_guests', { guests: [{ name: 'Ann', address: { city: 'O' } }, { name: 3 }] })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolValidationError);
      expect((error as ToolValidationError).issues.map((issue) => issue.path)).toEqual(
        expect.arrayContaining(['guests.0.address.city', 'guests.1.name', 'guests.1.address']),
      );
    });

    it('takes the whole argument object with @Param({ type: BookingRequest })', async () => {
      expect(agent.getTool('quote')!.inputSchema!.required).toEqual(['location', 'guests', 'billing']);
      await expect(
        agent.callTool('quote', { location: 'Oslo', guests: 1, billing: { city: 'Oslo' } }),
      ).resolves.toEqual({ location: 'Oslo', is_dto: true });
    });
  });
});
