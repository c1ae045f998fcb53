import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECTIONS } from './index';
import { schemaMarkdown } from './schema-doc';

describe('the README documents the read-model schema', () => {
  const readme = readFileSync(join(__dirname, '../../README.md'), 'utf8');

  // Prettier may re-align the Markdown tables: compare with runs of spaces and dashes collapsed
  const normal = (md: string) => md.replace(/-{3,}/g, '---').replace(/\s+/g, ' ').trim();

  test('the schema section is what the table definitions generate', () => {
    const start = readme.indexOf('<!-- schema:start -->') + '<!-- schema:start -->'.length;
    const end = readme.indexOf('<!-- schema:end -->');
    expect(normal(readme.slice(start, end))).toBe(normal(schemaMarkdown()));
  });

  test('every table carries its projection prefix and every column has a meaning', () => {
    for (const p of PROJECTIONS) {
      for (const t of p.tables) {
        expect(t.name.startsWith(`${p.prefix}_`)).toBe(true);
        for (const c of t.columns) expect(c.doc.length).toBeGreaterThan(3);
        for (const k of t.primaryKey) expect(t.columns.map((c) => c.name)).toContain(k);
      }
    }
  });
});
