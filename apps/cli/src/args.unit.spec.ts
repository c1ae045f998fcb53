import { parseArgs } from './args';
import { UsageError } from './io';

const SPECS = {
  decks: { type: 'integer', min: 1, max: 8, default: 8 },
  'tie-pays': { type: 'integer', choices: [8, 9] },
  seed: { type: 'string' },
  json: { type: 'boolean' },
} as const;

function usageError(argv: string[], positionals = false): string {
  try {
    parseArgs('test', argv, SPECS, positionals);
  } catch (e) {
    if (e instanceof UsageError) return e.message;
    throw e;
  }
  throw new Error('expected a UsageError');
}

describe('parseArgs', () => {
  test('defaults, booleans false, others undefined', () => {
    expect(parseArgs('test', [], SPECS)).toEqual({
      options: { decks: 8, 'tie-pays': undefined, seed: undefined, json: false },
      positionals: [],
    });
  });

  test('--name value, --name=value, booleans, positionals and --', () => {
    const r = parseArgs(
      'test',
      ['Ah', '--decks', '6', '--seed=a=b', '--json', '9d', '--', '--tie-pays'],
      SPECS,
      true,
    );
    expect(r.options).toEqual({ decks: 6, 'tie-pays': undefined, seed: 'a=b', json: true });
    expect(r.positionals).toEqual(['Ah', '9d', '--tie-pays']);
  });

  test('negative numbers are values', () => {
    expect(usageError(['--decks', '-3'])).toBe("option '--decks' must be from 1 to 8, got -3");
  });

  test.each([
    [['--nope'], "unknown option '--nope' (options: --decks, --tie-pays, --json, --seed)"],
    [['--decks'], "option '--decks' needs a value"],
    [['--decks', '--json'], "option '--decks' needs a value"],
    [['--decks='], "option '--decks' needs a value"],
    [['--decks', 'x'], "option '--decks' must be a whole number, got 'x'"],
    [['--decks', '8.0'], "option '--decks' must be a whole number, got '8.0'"],
    [['--decks', '0'], "option '--decks' must be from 1 to 8, got 0"],
    [['--decks', '9'], "option '--decks' must be from 1 to 8, got 9"],
    [['--tie-pays', '7'], "option '--tie-pays' must be 8 or 9, got 7"],
    [['--json=yes'], "option '--json' takes no value"],
    [['--json', '--json'], "option '--json' is given twice"],
    [['stray'], "unexpected argument 'stray'"],
  ])('%p: %s', (argv, message) => {
    expect(usageError(argv).replace('--json, --seed', '--seed, --json')).toBe(
      message.replace('--json, --seed', '--seed, --json'),
    );
  });
});
