/**
 * Client objects are read by their own properties only: keys named like Object.prototype's members are refused
 * as unknown, like any other unknown key, and nothing inherited (a polluted Object.prototype, an object made with
 * a prototype) is ever read as a rule or a command field.
 */
import {
  DEFAULT_RULES,
  decide,
  evolve,
  fold,
  normalizeRules,
  type TableCommand,
  type TableEvent,
} from '../src';
import { admin, bet, buy, cmd, dealer, given, history, open, player, seed, T0 } from './support';

/** Sets properties on Object.prototype for the length of `run`, then removes them. */
function withPolluted(values: Record<string, unknown>, run: () => void): void {
  const proto = Object.prototype as Record<string, unknown>;
  for (const [k, v] of Object.entries(values)) proto[k] = v;
  try {
    run();
  } finally {
    for (const k of Object.keys(values)) delete proto[k];
  }
}

const PROTOTYPE_KEYS = [
  'toString',
  'prototype',
  'hasOwnProperty',
  'constructor',
  'valueOf',
  'isPrototypeOf',
  '__proto__',
  '__defineGetter__',
];

describe('table rules: own keys only', () => {
  it.each(PROTOTYPE_KEYS)('refuses the rule key %p as unknown: INVALID_RULES', (key) => {
    // JSON.parse makes own properties of every key, __proto__ included, as the wire does
    const rules = JSON.parse(`{"${key}": 1}`) as unknown;
    expect(normalizeRules(rules)).toMatchObject({
      ok: false,
      error: { code: 'INVALID_RULES', details: { field: key } },
    });
  });

  it.each(PROTOTYPE_KEYS)('refuses %p inside limits and inside a limit: INVALID_RULES', (key) => {
    const spot = JSON.parse(`{"limits": {"${key}": {"min": 100}}}`) as unknown;
    expect(normalizeRules(spot)).toMatchObject({ ok: false, error: { details: { field: `limits.${key}` } } });
    const field = JSON.parse(`{"limits": {"tie": {"min": 100, "${key}": 1}}}`) as unknown;
    expect(normalizeRules(field)).toMatchObject({
      ok: false,
      error: { details: { field: `limits.tie.${key}` } },
    });
  });

  it('reads no rule from a polluted Object.prototype', () => {
    withPolluted({ decks: 1, cutCard: 12, dealtBy: 'player', bettingSeconds: 5, chips: [1] }, () => {
      expect(normalizeRules({})).toEqual({ ok: true, value: DEFAULT_RULES });
      expect(normalizeRules({ limits: {} })).toEqual({ ok: true, value: DEFAULT_RULES });
    });
    withPolluted({ player: { min: 1_000_000_000 }, min: 7, max: 9 }, () => {
      expect(normalizeRules({ limits: { tie: {} } })).toEqual({ ok: true, value: DEFAULT_RULES });
    });
  });

  it('reads no rule an object inherits from its own prototype', () => {
    const inherited = Object.create({ decks: 1, tiePays: 9 }) as object;
    expect(normalizeRules(inherited)).toEqual({ ok: true, value: DEFAULT_RULES });
  });

  it('refuses a chips array with a hole (nothing inherited fills it)', () => {
    const chips = [100, 500, 2500];
    delete chips[1];
    withPolluted({ 1: 200 }, () => {
      expect(normalizeRules({ chips })).toMatchObject({
        ok: false,
        error: { details: { field: 'chips[1]' } },
      });
    });
  });
});

describe('commands: own fields only', () => {
  const t = history(
    open(),
    buy('ann', 10_000),
    cmd('StartShoe', { seed: seed('own') }),
    cmd('OpenBetting', {}),
  );
  const placed = [...t, ...given(t).when(bet(1, 'ann', 'player', 500)).events];

  it('a ClearBets without playerId never takes one from Object.prototype: INVALID_PLAYER_ID', () => {
    withPolluted({ playerId: 'ann' }, () => {
      given(placed)
        .when(cmd('ClearBets', { roundNo: 1 } as never, dealer))
        .then('INVALID_PLAYER_ID');
    });
  });

  it('a Deal without nextSeed never takes one from Object.prototype', () => {
    const closed = [...placed, ...given(placed).when(cmd('CloseBetting', { roundNo: 1 })).events];
    withPolluted({ nextSeed: 'not a seed' }, () => {
      const d = decide(cmd('Deal', { roundNo: 1 }), fold(closed));
      expect(d.ok ? d.events.at(-1)?.type : d.error.code).toBe('CoupResolved');
    });
  });

  it('an envelope whose type, data or meta is inherited is INVALID_COMMAND', () => {
    const meta = { actor: admin, at: T0 };
    const state = fold(t);
    const inheritedType = Object.assign(Object.create({ type: 'CloseTable' }) as object, { data: {}, meta });
    expect(decide(inheritedType as TableCommand, state)).toMatchObject({
      ok: false,
      error: { code: 'INVALID_COMMAND', details: { field: 'type' } },
    });
    const inheritedMeta = Object.assign(Object.create({ meta }) as object, { type: 'CloseTable', data: {} });
    expect(decide(inheritedMeta as TableCommand, state)).toMatchObject({
      ok: false,
      error: { code: 'INVALID_COMMAND', details: { field: 'meta' } },
    });
    const inheritedActor = {
      type: 'CloseTable',
      data: {},
      meta: Object.assign(Object.create({ actor: admin }) as object, { at: T0 }),
    };
    expect(decide(inheritedActor as unknown as TableCommand, state)).toMatchObject({
      ok: false,
      error: { code: 'INVALID_COMMAND', details: { field: 'meta' } },
    });
    const inheritedData = {
      type: 'BuyIn',
      data: Object.create({ playerId: 'bob', amount: 100 }) as object,
      meta,
    };
    expect(decide(inheritedData as unknown as TableCommand, state)).toMatchObject({
      ok: false,
      error: { code: 'INVALID_PLAYER_ID' },
    });
  });

  it.each(PROTOTYPE_KEYS.filter((k) => k !== '__proto__'))(
    'refuses a data field named %p: INVALID_COMMAND',
    (key) => {
      const data = JSON.parse(`{"roundNo": 1, "playerId": "ann", "${key}": 1}`) as never;
      given(placed)
        .when(cmd('ClearBets', data, player('ann')))
        .then('INVALID_COMMAND', { field: key });
    },
  );
});

describe('evolve: own event types only', () => {
  it.each(PROTOTYPE_KEYS)("leaves the state as it is for an event of type %p (a newer writer's)", (type) => {
    const state = fold(history(open()));
    expect(evolve(state, { type, data: {} } as unknown as TableEvent)).toBe(state);
  });
});
