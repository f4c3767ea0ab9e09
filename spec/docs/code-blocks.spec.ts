import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { compileDocBlocks, readDocBlocks } from '../fixtures/docs/compile-doc-blocks';

const root = join(__dirname, '../..');
const docs = [
  join(root, 'README.md'),
  ...readdirSync(join(root, 'docs'))
    .filter((file) => file.endsWith('.md'))
    .map((file) => join(root, 'docs', file)),
];

describe('the TypeScript examples of README.md and docs/', () => {
  const blocks = readDocBlocks(docs, root);

  it('finds the examples of every guide', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(20);
    expect(new Set(blocks.map((block) => block.doc))).toContain(join(root, 'README.md'));
  });

  it('type-check against the package sources', () => {
    expect(compileDocBlocks(blocks, root)).toEqual([]);
  });
});
