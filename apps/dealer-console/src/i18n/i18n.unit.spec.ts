import { CATALOGUES } from './index';

/** Every key path of a catalogue ("a.b.c"). */
function keys(obj: object, prefix = ''): string[] {
  return Object.entries(obj).flatMap(([k, v]) =>
    typeof v === 'object' && v !== null ? keys(v as object, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}

describe('message catalogues', () => {
  it('Chinese has every namespace and key English has, and no other', () => {
    expect(Object.keys(CATALOGUES.zh).sort()).toEqual(Object.keys(CATALOGUES.en).sort());
    for (const ns of Object.keys(CATALOGUES.en) as (keyof typeof CATALOGUES.en)[]) {
      expect({ ns, keys: keys(CATALOGUES.zh[ns]).sort() }).toEqual({
        ns,
        keys: keys(CATALOGUES.en[ns]).sort(),
      });
    }
  });

  it('no message is empty', () => {
    for (const lng of Object.values(CATALOGUES))
      for (const ns of Object.values(lng))
        for (const k of keys(ns))
          expect(k.split('.').reduce<unknown>((o, p) => (o as Record<string, unknown>)[p], ns)).not.toBe('');
  });
});
