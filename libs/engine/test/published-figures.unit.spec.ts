import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DISAGREEMENTS,
  PUBLISHED_FIGURES,
  type PublishedFigure,
  engineFigure,
  publishedValue,
  readmeDisagreementRow,
  readmeRow,
} from './published-figures';

/** A table row's cells, trimmed (the README is formatted by prettier, which pads them). */
const cells = (row: string): string[] => row.split(' | ').map((cell) => cell.replace(/^\|? *| *\|?$/g, ''));
const name = (f: PublishedFigure): string => readmeRow(f).replace(/\[([^\]]+)\]\([^)]+\)/, '$1');

describe('the exact odds equal the published figures to every digit published', () => {
  test.each(PUBLISHED_FIGURES.map((f) => [name(f), f] as const))('%s', (_, f) => {
    expect(engineFigure(f)).toBe(publishedValue(f));
  });

  test.each(DISAGREEMENTS.map((d) => [name(d), d] as const))(
    'a published figure that disagrees, explained: %s',
    (_, d) => {
      expect(engineFigure(d)).toBe(d.engine);
      expect(d.engine).not.toBe(d.published);
    },
  );
});

describe("the engine's README", () => {
  const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
  const tableBetween = (start: string, end: string): string[] => {
    const from = readme.indexOf(start);
    const to = readme.indexOf(end);
    expect(from).toBeGreaterThan(-1);
    expect(to).toBeGreaterThan(from);
    return readme
      .slice(from, to)
      .split('\n')
      .filter((line) => line.startsWith('| ') && !line.startsWith('| bet ') && !line.startsWith('| ---'));
  };

  test('lists exactly the figures tested, each with its source', () => {
    const rows = tableBetween('<!-- published-figures -->', '<!-- /published-figures -->');
    expect(rows.map(cells)).toEqual(PUBLISHED_FIGURES.map(readmeRow).map(cells));
  });

  test('lists exactly the disagreements tested, each with its reason', () => {
    const rows = tableBetween('<!-- published-disagreements -->', '<!-- /published-disagreements -->');
    expect(rows.map(cells)).toEqual(DISAGREEMENTS.map(readmeDisagreementRow).map(cells));
  });
});
