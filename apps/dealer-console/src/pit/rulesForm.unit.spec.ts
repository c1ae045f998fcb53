/** The open-a-table form as data: what it sends, and the table library's own check naming the refused field. */
import { DEFAULT_RULES, normalizeRules } from '@coup/table';
import {
  CONTROLS,
  centsOf,
  checkForm,
  controlOf,
  initialForm,
  rawRules,
  ruleErrorOf,
  wholeOf,
} from './rulesForm';

const form = (patch: Partial<ReturnType<typeof initialForm>> = {}) => ({
  ...initialForm(),
  tableId: 'T1',
  ...patch,
});

describe('amounts and numbers as typed', () => {
  it.each([
    ['25', 2500],
    ['2.5', 250],
    ['$1,000.05', 100_005],
    ['0.01', 1],
    ['', undefined],
    ['  ', undefined],
    ['ten', 'ten'],
    ['1.234', '1.234'],
    ['-5', '-5'],
  ])('centsOf(%j) is %j', (text, cents) => expect(centsOf(text)).toBe(cents));

  it.each([
    ['8', 8],
    ['', undefined],
    ['-3', -3],
    ['2.5', '2.5'],
    ['x', 'x'],
  ])('wholeOf(%j) is %j', (text, n) => expect(wholeOf(text)).toBe(n));
});

describe('the raw rules', () => {
  it('the form as it opens sends the default rules, which the service takes as they are', () => {
    const raw = rawRules(form());
    const checked = normalizeRules(raw);
    expect(checked).toEqual({ ok: true, value: DEFAULT_RULES });
    expect(raw).not.toHaveProperty('sideBets');
    expect(raw).not.toHaveProperty('correctionSeconds');
    expect(raw['bettingSeconds']).toBeNull();
  });

  it('sends every rule set: side bets with paytables and limits, timing, confirmation, stakes', () => {
    const f = initialForm();
    const raw = rawRules({
      ...f,
      tableId: 'LIVE7',
      dealing: 'live',
      decks: '6',
      game: 'no-commission',
      tiePays: '9',
      chips: '5, 25 100',
      limits: {
        player: { min: '10', max: '1000' },
        banker: { min: '10', max: '1000' },
        tie: { min: '5', max: '200' },
      },
      bettingSeconds: '20',
      correctionSeconds: '90',
      confirmResult: true,
      maxStakes: '500',
      sideBets: { ...f.sideBets, super6: { offered: true, paytable: '15-to-1', min: '5', max: '' } },
    });
    expect(raw).toEqual({
      dealing: 'live',
      shuffle: 'shoe',
      dealtBy: 'dealer',
      game: 'no-commission',
      tiePays: 9,
      chips: [500, 2500, 10_000],
      limits: {
        player: { min: 1000, max: 100_000 },
        banker: { min: 1000, max: 100_000 },
        tie: { min: 500, max: 20_000 },
      },
      allowPlayerAndBanker: false,
      bettingSeconds: 20,
      confirmResult: true,
      decks: 6,
      cutCard: 16,
      correctionSeconds: 90,
      maxStakes: 500,
      sideBets: { super6: { paytable: '15-to-1', min: 500 } },
    });
    const checked = normalizeRules(raw);
    expect(checked.ok && checked.value.sideBets).toEqual({
      super6: { paytable: '15-to-1', min: 500, max: 20_000 },
    });
  });
});

describe('the check names the field the service would name', () => {
  it.each([
    ['tableId', { tableId: 'has space' }],
    ['cutCard', { cutCard: '300' }],
    ['decks', { decks: '9' }],
    ['chips[1]', { chips: '5, 1' }],
    ['limits.tie.min', { limits: { ...initialForm().limits, tie: { min: '300', max: '200' } } }],
    ['bettingSeconds', { bettingSeconds: 'soon' }],
    ['confirmResult', { confirmResult: true }],
    ['correctionSeconds', { correctionSeconds: '601' }],
    ['maxStakes', { maxStakes: '2001' }],
    ['shuffle', { dealing: 'live' as const, shuffle: 'every-coup' as const }],
    [
      'sideBets.dragon7',
      {
        sideBets: {
          ...initialForm().sideBets,
          dragon7: { offered: true, paytable: '40-to-1', min: '', max: '' },
        },
      },
    ],
    [
      'sideBets.big.max',
      {
        sideBets: {
          ...initialForm().sideBets,
          big: { offered: true, paytable: '0.54-to-1', min: '', max: '99999' },
        },
      },
    ],
  ])('names %s', (field, patch) => {
    const refusal = checkForm(form(patch))[0];
    expect(refusal?.field).toBe(field);
    expect(controlOf(field)).not.toBeNull();
  });
});

describe('every refusal at once', () => {
  it('names every bad rule, each once, in the order the service checks them; none for a right form', () => {
    expect(checkForm(form({}))).toEqual([]);
    const refusals = checkForm(
      form({
        tableId: 'bad id',
        decks: '9',
        chips: '1, 1',
        cutCard: '999',
        bettingSeconds: '601',
        maxStakes: '0',
      }),
    );
    expect(refusals.map((r) => [r.field, r.code])).toEqual([
      ['tableId', 'INVALID_TABLE_ID'],
      ['decks', 'INVALID_RULES'],
      ['chips[1]', 'INVALID_RULES'],
      ['bettingSeconds', 'INVALID_RULES'],
      ['cutCard', 'INVALID_RULES'],
      ['maxStakes', 'INVALID_RULES'],
    ]);
    expect(refusals[0]?.message).toBeNull();
    expect(refusals[4]?.message).toMatch(/cutCard must be an integer from 12 to 208/);
  });

  it('says each in words of its own, the cut card with the bounds of the decks typed', () => {
    const f = form({ decks: '2', cutCard: '60' });
    expect(ruleErrorOf('cutCard', f)).toEqual({ key: 'cutCard', values: { decks: 2, min: 12, max: 52 } });
    expect(ruleErrorOf('chips[3]', f).key).toBe('chips');
    expect(ruleErrorOf('limits.tie', f).key).toBe('limit');
    expect(ruleErrorOf('sideBets.big.max', f).key).toBe('sideLimit');
    expect(ruleErrorOf('sideBets.big.paytable', f).key).toBe('paytable');
    expect(ruleErrorOf('sideBets.dragon7', f).key).toBe('sideBet');
    expect(ruleErrorOf('rules', f).key).toBe('other');
    expect(ruleErrorOf('cutCard', form({ decks: 'x' })).values['decks']).toBe(8);
  });
});

describe('where a refusal is shown', () => {
  it.each([
    ['cutCard', 'cutCard'],
    ['chips[3]', 'chips'],
    ['limits.player', 'limits.player.min'],
    ['limits.player.max', 'limits.player.max'],
    ['sideBets.super6', 'sideBets.super6'],
    ['sideBets.super6.paytable', 'sideBets.super6.paytable'],
    ['rules', null],
    ['sideBets.nonsense', null],
  ])('%s at %s', (field, control) => expect(controlOf(field)).toBe(control));

  it('every control is named once', () => expect(new Set(CONTROLS).size).toBe(CONTROLS.length));
});
