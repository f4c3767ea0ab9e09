import { join } from 'node:path';
import {
  findUnitCircles,
  findUpwardImports,
  LAYERS,
  readLibImports,
  toUnit,
} from './fixtures/architecture/import-graph';

const imports = readLibImports(join(__dirname, '..', 'lib'));
// Entry files only re-export (nothing in lib/ imports one), so they are no part of the rooms' graph.
const isEntry = (path: string): boolean => /(^|\/)index\.ts$/.test(path);
const inner = imports.filter((entry) => !isEntry(entry.from));

describe('the layers of lib/', () => {
  it('knows the layer of every room of lib/', () => {
    const rooms = new Set(imports.flatMap((entry) => [entry.fromUnit, entry.toUnit]));
    expect([...rooms].filter((room) => LAYERS[room] === undefined)).toEqual([]);
    expect(toUnit('mcp/rev2025-11-25/shared-sessions.ts')).toBe('mcp/rev2025-11-25');
    expect(toUnit('tools/metadata/metadata-keys.ts')).toBe('tools');
  });

  it('has no circle between rooms', () => {
    expect(findUnitCircles(inner)).toEqual([]);
  });

  it('imports only down a layer', () => {
    const upward = [...new Set(findUpwardImports(inner).map((entry) => `${entry.from} -> ${entry.to}`))];
    expect(upward).toEqual([]);
  });

  it('lets one entry file import up: protolink/tools re-exports the built-ins', () => {
    const entries = findUpwardImports(imports.filter((entry) => isEntry(entry.from)));
    const fromEntries = entries.filter((entry) => LAYERS[entry.fromUnit] !== LAYERS['.']);
    expect([...new Set(fromEntries.map((entry) => `${entry.fromUnit} -> ${entry.toUnit}`))]).toEqual([
      'tools -> builtins',
    ]);
  });

  it('keeps lib/tools/ free of the MCP client and server', () => {
    const mcpInTools = imports.filter(
      (entry) => entry.fromUnit === 'tools' && entry.toUnit.startsWith('mcp/'),
    );
    expect(mcpInTools).toEqual([]);
  });
});
