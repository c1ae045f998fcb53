import { DEFAULT_RULES, MIN_CUT_CARD, chipUnit, normalizeRules } from '../src';

function fieldOf(input: unknown): unknown {
  const r = normalizeRules(input);
  if (r.ok) return 'ok';
  expect(r.error.code).toBe('INVALID_RULES');
  expect(r.error.message).toContain(String(r.error.details?.['field']));
  return r.error.details?.['field'];
}

describe('normalizeRules', () => {
  it('fills every default', () => {
    expect(normalizeRules(undefined)).toEqual({ ok: true, value: DEFAULT_RULES });
    expect(normalizeRules({})).toEqual({ ok: true, value: DEFAULT_RULES });
    expect(DEFAULT_RULES).toEqual({
      dealing: 'rng',
      decks: 8,
      shuffle: 'shoe',
      dealtBy: 'dealer',
      tiePays: 8,
      commission: 'deducted',
      limits: {
        player: { min: 100, max: 500_000 },
        banker: { min: 100, max: 500_000 },
        tie: { min: 100, max: 100_000 },
      },
      chips: [100, 500, 2500, 10_000, 50_000],
      allowPlayerAndBanker: false,
      bettingSeconds: null,
      cutCard: 16,
    });
  });

  it('keeps what it is given and defaults the rest (partial limits too)', () => {
    const r = normalizeRules({
      dealing: 'live',
      decks: 6,
      tiePays: 9,
      commission: 'box',
      limits: { tie: { max: 50_000 }, banker: { min: 500 } },
      chips: [100, 1000],
      allowPlayerAndBanker: true,
      bettingSeconds: 20,
      cutCard: 14,
    });
    expect(r).toEqual({
      ok: true,
      value: {
        ...DEFAULT_RULES,
        dealing: 'live',
        decks: 6,
        tiePays: 9,
        commission: 'box',
        limits: {
          player: { min: 100, max: 500_000 },
          banker: { min: 500, max: 500_000 },
          tie: { min: 100, max: 50_000 },
        },
        chips: [100, 1000],
        allowPlayerAndBanker: true,
        bettingSeconds: 20,
        cutCard: 14,
      },
    });
  });

  it('returns plain JSON (a copy, not the input)', () => {
    const input = { chips: [100, 200] };
    const r = normalizeRules(input);
    expect(r.ok && r.value.chips).not.toBe(input.chips);
    expect(JSON.parse(JSON.stringify(r))).toEqual(r);
  });

  it.each<[string, unknown, string]>([
    ['not an object', 'rng', 'rules'],
    ['null', null, 'rules'],
    ['an array', [], 'rules'],
    ['an unknown key', { speed: 'fast' }, 'speed'],
    ['dealing', { dealing: 'robot' }, 'dealing'],
    ['decks 0', { decks: 0 }, 'decks'],
    ['decks 9', { decks: 9 }, 'decks'],
    ['decks 6.5', { decks: 6.5 }, 'decks'],
    ['decks "8"', { decks: '8' }, 'decks'],
    ['shuffle', { shuffle: 'never' }, 'shuffle'],
    ['dealtBy', { dealtBy: 'robot' }, 'dealtBy'],
    ['tiePays 7', { tiePays: 7 }, 'tiePays'],
    ['tiePays "8"', { tiePays: '8' }, 'tiePays'],
    ['commission', { commission: 'none' }, 'commission'],
    ['limits not an object', { limits: 5 }, 'limits'],
    ['limits unknown spot', { limits: { pair: { min: 1, max: 2 } } }, 'limits.pair'],
    ['limits unknown field', { limits: { tie: { min: 100, max: 200, step: 1 } } }, 'limits.tie.step'],
    ['limit not an object', { limits: { tie: 100 } }, 'limits.tie'],
    ['min 0', { limits: { player: { min: 0 } } }, 'limits.player.min'],
    ['min negative', { limits: { player: { min: -100 } } }, 'limits.player.min'],
    ['min fractional', { limits: { player: { min: 100.5 } } }, 'limits.player.min'],
    ['max huge', { limits: { banker: { max: 1e16 } } }, 'limits.banker.max'],
    ['min above max', { limits: { tie: { min: 200_000 } } }, 'limits.tie.min'],
    ['min not made of chips', { limits: { tie: { min: 150 } } }, 'limits.tie.min'],
    ['max not made of chips', { limits: { tie: { max: 100_050 } } }, 'limits.tie.max'],
    ['default limits not made of chips', { chips: [250, 500] }, 'limits.player'],
    ['chips empty', { chips: [] }, 'chips'],
    ['chips not an array', { chips: 100 }, 'chips'],
    ['chips 21 values', { chips: Array.from({ length: 21 }, (_, i) => (i + 1) * 100) }, 'chips'],
    ['chip 0', { chips: [0, 100] }, 'chips[0]'],
    ['chip fractional', { chips: [100, 150.5] }, 'chips[1]'],
    ['chips not ascending', { chips: [500, 100] }, 'chips[1]'],
    ['chips duplicated', { chips: [100, 100] }, 'chips[1]'],
    ['allowPlayerAndBanker', { allowPlayerAndBanker: 'yes' }, 'allowPlayerAndBanker'],
    ['bettingSeconds 0', { bettingSeconds: 0 }, 'bettingSeconds'],
    ['bettingSeconds 601', { bettingSeconds: 601 }, 'bettingSeconds'],
    ['bettingSeconds 1.5', { bettingSeconds: 1.5 }, 'bettingSeconds'],
    ['cutCard too small', { cutCard: MIN_CUT_CARD - 1 }, 'cutCard'],
    ['cutCard beyond half the shoe', { decks: 1, cutCard: 27 }, 'cutCard'],
    ['live every-coup', { dealing: 'live', shuffle: 'every-coup' }, 'shuffle'],
    ['live player-dealt', { dealing: 'live', dealtBy: 'player' }, 'dealtBy'],
    ['player-dealt with a timer', { dealtBy: 'player', bettingSeconds: 10 }, 'bettingSeconds'],
  ])('refuses %s', (_label, input, field) => {
    expect(fieldOf(input)).toBe(field);
  });

  it.each<[string, unknown]>([
    ['1 deck, cut card 26', { decks: 1, cutCard: 26 }],
    [`cut card ${MIN_CUT_CARD}`, { cutCard: MIN_CUT_CARD }],
    ['8 decks, cut card 208', { cutCard: 208 }],
    ['a 600 s timer', { bettingSeconds: 600 }],
    ['an explicit null timer', { bettingSeconds: null }],
    ['the online game', { dealing: 'rng', shuffle: 'every-coup', dealtBy: 'player' }],
    ['one chip', { chips: [100] }],
    ['undefined values (defaults)', { decks: undefined, tiePays: undefined }],
  ])('accepts %s', (_label, input) => {
    expect(fieldOf(input)).toBe('ok');
  });
});

describe('chipUnit', () => {
  it('is the gcd of the chips', () => {
    expect(chipUnit([100, 500, 2500])).toBe(100);
    expect(chipUnit([250, 1000])).toBe(250);
    expect(chipUnit([25, 100, 500])).toBe(25);
    expect(chipUnit([300, 500])).toBe(100);
  });
});
