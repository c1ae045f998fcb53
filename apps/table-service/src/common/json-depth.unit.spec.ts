import fc from 'fast-check';
import { jsonDeeperThan } from './validation';

/** The nesting of a parsed JSON value (a scalar is 0, `[]` and `{}` are 1). */
function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + Math.max(0, ...children.map(depthOf));
}

describe('jsonDeeperThan: the depth check before parsing', () => {
  it('agrees with the parsed depth for any JSON text, strings full of brackets, quotes and escapes included', () => {
    const text = fc.string({ unit: fc.constantFrom('[', ']', '{', '}', '"', '\\', 'a', ' ') });
    const json = fc.letrec<{ value: unknown }>((tie) => ({
      value: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), text),
        fc.array(tie('value'), { maxLength: 3 }),
        fc.dictionary(text, tie('value'), { maxKeys: 3 }),
      ),
    })).value;
    fc.assert(
      fc.property(json, fc.integer({ min: 1, max: 8 }), fc.boolean(), (value, max, pretty) => {
        const serialized = JSON.stringify(value, null, pretty ? 2 : undefined);
        expect(jsonDeeperThan(serialized, max)).toBe(depthOf(value) > max);
      }),
      { seed: 21, numRuns: 2000 },
    );
  });

  it('walks a 100,000-level body without recursion and stops at the first level too many', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    expect(jsonDeeperThan(deep, 32)).toBe(true);
    expect(jsonDeeperThan('{"a":[1,{"b":2}]}', 3)).toBe(false);
    expect(jsonDeeperThan('{"a":[1,{"b":[2]}]}', 3)).toBe(true);
  });
});
