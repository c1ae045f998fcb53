import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analystTables } from '../read-models/analyst';
import { ANALYST_DOC_END, ANALYST_DOC_START, analystSchemaMarkdown } from './analyst-doc';
import { REPORT_VIEWS } from './views';

/** The analysts' page: docs/analyst-schema.md. */
const ANALYST_PAGE = join(__dirname, '../../../../docs/analyst-schema.md');

describe('docs/analyst-schema.md', () => {
  const page = readFileSync(ANALYST_PAGE, 'utf8');
  // Prettier may re-align the Markdown tables: compare with runs of spaces and dashes collapsed
  const normal = (md: string) => md.replace(/-{3,}/g, '---').replace(/\s+/g, ' ').trim();

  test('its generated part is what the table definitions and the views generate', () => {
    const start = page.indexOf(ANALYST_DOC_START) + ANALYST_DOC_START.length;
    const end = page.indexOf(ANALYST_DOC_END);
    expect(start).toBeGreaterThan(ANALYST_DOC_START.length);
    expect(normal(page.slice(start, end))).toBe(normal(analystSchemaMarkdown()));
  });

  test('every table, view and setting is named in the page, and every column has a meaning', () => {
    for (const t of analystTables) {
      expect(page).toContain(`\`${t.name}\``);
      for (const c of t.columns) expect(c.doc.length).toBeGreaterThan(3);
    }
    for (const v of REPORT_VIEWS) expect(page).toContain(`\`${v.name}\``);
    for (const key of ['COUP_GAMING_DAY', 'COUP_SHIFTS', 'COUP_ANOMALY_Z']) expect(page).toContain(key);
  });
});
