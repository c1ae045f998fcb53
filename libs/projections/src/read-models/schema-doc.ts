/** The read-model schema as Markdown, generated from the projections' table definitions (for the README). */
import { PROJECTIONS } from './index';
import type { TableDef } from './kernel/types';

const STATE_TABLE: TableDef = {
  name: '<prefix>_state',
  doc: 'Each projection also has one: the fold state per key (table id) as JSON, where it resumes (never an unrevealed seed).',
  primaryKey: ['key'],
  columns: [
    { name: 'key', type: 'TEXT', doc: 'State key (table id)' },
    { name: 'position', type: 'INTEGER', doc: 'Global position of the last event that changed this state' },
    { name: 'state', type: 'TEXT', doc: 'The state (JSON)' },
  ],
};

/** One table as Markdown: its doc, keys and indexes, and a row per column (also for docs/analyst-schema.md). */
export function table(def: TableDef): string {
  const key = `primary key (${def.primaryKey.join(', ')})${def.withoutRowid ? ', WITHOUT ROWID' : ''}`;
  const idx = (def.indexes ?? []).map((i) => `index on (${i.columns.join(', ')})`);
  const lines = [
    `#### \`${def.name}\``,
    '',
    `${def.doc} ${[key, ...idx].join('; ')}.`,
    '',
    '| column | type | meaning |',
    '| --- | --- | --- |',
  ];
  for (const c of def.columns) lines.push(`| \`${c.name}\` | ${c.type} | ${c.doc.replace(/\|/g, '\\|')} |`);
  return lines.join('\n');
}

export function schemaMarkdown(): string {
  const out: string[] = [];
  for (const p of PROJECTIONS) {
    out.push(`### ${p.name} (prefix \`${p.prefix}_\`, version ${p.version})`, '', p.description, '');
    for (const t of p.tables) out.push(table(t), '');
  }
  out.push('### Shared', '', table(STATE_TABLE), '');
  out.push(
    '#### `projection_checkpoints`',
    '',
    'One row per projection: `name`, `version` (of the fold it was built with), `position` (global position of the last event applied: ' +
      'the read-model writes and this row commit in one transaction), `generation` (bumped by each rebuild swap), `updated_at`, `rebuilt_at`.',
    '',
  );
  return out.join('\n');
}
