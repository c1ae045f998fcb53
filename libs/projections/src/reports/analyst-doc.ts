/**
 * The generated part of docs/analyst-schema.md: the analysts' tables from their definitions, and each report
 * view's SQL (`node --import tsx libs/projections/scripts/analyst-schema-doc.ts` prints it; a test checks the page
 * holds exactly this between its markers).
 */
import { analystProjection } from '../read-models/analyst/fold';
import { factTables } from '../read-models/analyst/schema-facts';
import { dimTables } from '../read-models/analyst/schema-dims';
import { sumTables } from '../read-models/analyst/schema-sums';
import { table } from '../read-models/schema-doc';
import { REPORT_VIEWS } from './views';

export const ANALYST_DOC_START = '<!-- analyst-schema:start -->';
export const ANALYST_DOC_END = '<!-- analyst-schema:end -->';

/** A view's SQL, one clause a line, for reading. */
function readable(sql: string): string {
  return sql
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join('\n');
}

export function analystSchemaMarkdown(): string {
  const p = analystProjection();
  const out = [
    `### Fact tables`,
    '',
    ...factTables.flatMap((t) => [table(t), '']),
    `### Dimension tables`,
    '',
    ...dimTables.flatMap((t) => [table(t), '']),
    `### Summary tables`,
    '',
    'The facts added up per gaming day, table and shift, kept by the same fold: the REST reports read them when they answer the question (no hour, no instants), a year in thousands of rows.',
    '',
    ...sumTables.flatMap((t) => [table(t), '']),
    `### Report views`,
    '',
    'In the read models, SQLite file or PostgreSQL schema, beside the tables (made with them, and again by each rebuild in the transaction that swaps the tables in); the same SQL in both.',
    '',
  ];
  for (const v of REPORT_VIEWS)
    out.push(`#### \`${v.name}\``, '', v.doc, '', '```sql', readable(v.sql), '```', '');
  out.push(
    `### Internal`,
    '',
    `\`${p.prefix}_state\` holds the fold's state per table (JSON), where the projection resumes: internal, its shape changes without notice; do not query it. \`projection_checkpoints\` says how far each read model has read the log (\`name = '${p.name}'\`).`,
    '',
  );
  return out.join('\n');
}
