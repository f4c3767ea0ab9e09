import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolInputError } from '../../../lib/errors/tool-input-error';
import { generateSchemaManifest } from '../../../lib/tools/manifest/generate-schema-manifest';
import { loadSchemaManifest } from '../../../lib/tools/manifest/load-schema-manifest';
import { scanTools } from '../../../lib/tools/registry/scan-tools';
import { WeatherTools } from '../../fixtures/toolsets/typed-tools';

const fixture = join(__dirname, '../../fixtures/toolsets/typed-tools.ts');

/** TypeScript orders union members by type id, not source order: compare `enum` and `required` as sets. */
function withSortedSets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withSortedSets);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) =>
      (key === 'enum' || key === 'required') && Array.isArray(inner)
        ? [key, [...inner].sort()]
        : [key, withSortedSets(inner)],
    ),
  );
}

describe('generateSchemaManifest', () => {
  const manifest = generateSchemaManifest({ files: [fixture] });

  it('derives output schemas from return types, unwrapping promises', () => {
    expect(manifest.tools['WeatherTools.add'].outputSchema).toEqual({ type: 'number' });
    expect(withSortedSets(manifest.tools['WeatherTools.forecast'].outputSchema)).toMatchObject({
      type: 'object',
      properties: {
        city: { type: 'string' },
        temperature: { type: 'number', description: 'Temperature in degrees Celsius.' },
        conditions: { type: 'string', enum: ['cloudy', 'rain', 'sunny'] },
      },
      required: ['city', 'conditions', 'temperature'],
      additionalProperties: false,
    });
  });

  it('derives schemas of interface-, union- and array-typed parameters', () => {
    expect(manifest.tools['WeatherTools.forecast'].inputSchema).toMatchObject({
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'number' } },
      required: ['city'],
    });
    expect(withSortedSets(manifest.tools['WeatherTools.setUnits'].parameters)).toEqual({
      units: { type: 'string', enum: ['imperial', 'metric'] },
      cities: { type: 'array', items: { type: 'string' } },
    });
  });

  it('feeds scanTools, which prefers the manifest over design types', async () => {
    const tools = new Map(scanTools(new WeatherTools(), { manifest }).map((tool) => [tool.name, tool]));
    expect(tools.get('add')!.outputSchema).toEqual({ type: 'number', title: 'addOutput' });
    expect(tools.get('forecast')!.inputSchema.required).toEqual(['city']);
    expect(withSortedSets(tools.get('set_units')!.inputSchema.properties!.units)).toEqual({
      type: 'string',
      enum: ['imperial', 'metric'],
    });
    await expect(tools.get('set_units')!.call({ units: 'kelvin', cities: [] })).rejects.toThrow(
      /units: must be one of "(metric|imperial)"/,
    );
    // Without the manifest, the interface-typed parameter is only known as an object.
    const bare = new Map(scanTools(new WeatherTools()).map((tool) => [tool.name, tool]));
    expect(bare.get('forecast')!.inputSchema).toMatchObject({ type: 'object', additionalProperties: true });
  });

  it('round-trips through a file with loadSchemaManifest', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'manifest-')), 'schemas.json');
    writeFileSync(path, JSON.stringify(manifest));
    expect(loadSchemaManifest(path)).toEqual(manifest);
  });

  it('throws ToolInputError without files', () => {
    expect(() => generateSchemaManifest({ files: [] })).toThrow(ToolInputError);
  });
});

describe('loadSchemaManifest', () => {
  it('throws ToolInputError for a missing file, bad JSON or a foreign document', () => {
    const directory = mkdtempSync(join(tmpdir(), 'manifest-'));
    expect(() => loadSchemaManifest(join(directory, 'missing.json'))).toThrow(/run 'protolink schemas'/);
    writeFileSync(join(directory, 'bad.json'), '{nope');
    expect(() => loadSchemaManifest(join(directory, 'bad.json'))).toThrow(/not valid JSON/);
    writeFileSync(join(directory, 'other.json'), '{"version": 2}');
    expect(() => loadSchemaManifest(join(directory, 'other.json'))).toThrow(ToolInputError);
  });
});
