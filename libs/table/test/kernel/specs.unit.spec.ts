/**
 * Every command's spec against its parser: the parser reads exactly the spec's fields (no more: a field it reads
 * would be refused by the envelope; no less: a listed field it ignores would be taken and dropped), and the
 * derived tables come from the specs.
 */
import {
  COMMAND_FIELDS,
  COMMAND_ROLES,
  COMMAND_SEEDS,
  COMMAND_SPECS,
  type TableCommandType,
} from '../../src';

/** A valid value for every field any command takes. */
const VALID: Record<string, unknown> = {
  tableId: 'T1',
  rules: {},
  playerId: 'p1',
  amount: 500,
  seed: 'ab'.repeat(32),
  nextSeed: 'cd'.repeat(32),
  firstCard: 'Ah',
  spot: 'banker',
  roundNo: 3,
  byTimer: true,
  card: '9d',
  index: 0,
  reason: 'mis-deal',
};

const TYPES = Object.keys(COMMAND_SPECS) as TableCommandType[];

describe.each(TYPES)('%s spec', (type) => {
  const spec = COMMAND_SPECS[type];

  it('parses its fields, and reads no other', () => {
    const read = new Set<string>();
    const data = new Proxy(Object.create(null) as Record<string, unknown>, {
      get(_target, key) {
        if (typeof key === 'string') read.add(key);
        return typeof key === 'string' && spec.fields.includes(key) ? VALID[key] : undefined;
      },
    });
    const parsed = spec.parse(data);
    expect(parsed).not.toHaveProperty('error');
    expect([...read].sort()).toEqual([...spec.fields].sort());
  });

  it('lists seeds among its fields, and the derived tables are its own', () => {
    for (const field of spec.seeds) expect(spec.fields).toContain(field);
    expect(spec.type).toBe(type);
    expect(COMMAND_ROLES[type]).toBe(spec.roles);
    expect(COMMAND_FIELDS[type]).toBe(spec.fields);
    expect(COMMAND_SEEDS[type]).toBe(spec.seeds);
  });
});
