/**
 * A reason (a void's, a correction's) is one line of visible text: no control characters (tab and newline
 * included), no bidi controls, no zero-width or other invisible format characters, and something visible once
 * trimmed (REASON_TEXT). Refused INVALID_REASON, nothing recorded. Events recorded before the rule still fold.
 */
import { type TableEvent, REASON_TEXT, fold } from '../src';
import { bet, cmd, continueHistory, dealCards, given, liveReady, supervisor } from './support';

const dealing = continueHistory(
  liveReady(),
  cmd('OpenBetting', {}),
  bet(1, 'p1', 'player', 1000),
  cmd('CloseBetting', { roundNo: 1 }),
);
const voidWith = (reason: string) => cmd('VoidRound', { roundNo: 1, reason }, supervisor);

const REFUSED: [string, string][] = [
  ['an ANSI escape (C0 control)', 'misdeal\u001b[2J\u001b[31m'],
  ['a line break (a fake second line)', 'misdeal\r\nVOID APPROVED BY GAMING COMMISSION'],
  ['a tab', 'mis\tdeal'],
  ['a C1 control (NEL)', 'mis\u0085deal'],
  ['DEL', 'misdeal\u007f'],
  ['a NUL', 'mis\u0000deal'],
  ['a bidi override (RLO)', 'misdeal \u202eesrever'],
  ['a bidi isolate (RLI)', '\u2067misdeal\u2069'],
  ['an Arabic letter mark', 'misdeal\u061c'],
  ['zero-width spaces only', '\u200b\u200b\u200b'],
  ['a zero-width space inside', 'mis\u200bdeal'],
  ['a byte-order mark inside', 'mis\ufeffdeal'],
  ['a word joiner only', '\u2060\u2060\u2060'],
  ['a line separator', 'misdeal\u2028again'],
  ['Hangul fillers only (invisible, not format)', '\u3164\u3164\u3164'],
  ['a lone surrogate', 'misdeal\ud800'],
];

describe('a void reason is one line of visible text', () => {
  it.each(REFUSED)(
    'given a round being dealt, when voided with %s, then INVALID_REASON',
    (_label, reason) => {
      expect(REASON_TEXT.test(reason)).toBe(false);
      given(dealing).when(voidWith(reason)).then('INVALID_REASON', { field: 'reason' });
    },
  );

  it('given a round being dealt, when voided with an accented reason, then recorded as typed (trimmed)', () => {
    const reason = 'Carte retournée à l’envers — erreur du croupier ñ 日本';
    const then = given(dealing).when(voidWith(`  ${reason} `));
    expect(then.events).toMatchObject([{ type: 'RoundVoided', data: { reason } }]);
    // emoji with a variation selector are visible text too
    given(dealing)
      .when(voidWith('table bumped ⚠️'))
      .thenMatch([{ type: 'RoundVoided' }]);
  });

  it('given a round being dealt, when a correction carries a bidi reason, then INVALID_REASON', () => {
    const two = continueHistory(dealing, ...dealCards(1, ['2c', '9c']));
    given(two)
      .when(cmd('CorrectCard', { roundNo: 1, index: 1, card: '8c', reason: 'typo \u202e' }, supervisor))
      .then('INVALID_REASON', { field: 'reason' });
    given(two)
      .when(
        cmd(
          'CorrectCard',
          { roundNo: 1, index: 1, card: '8c', reason: 'dealer typed 9c for 8c' },
          supervisor,
        ),
      )
      .thenMatch([{ type: 'CardCorrected' }]);
  });

  it('given a void recorded before the rule with a control character in its reason, then it still folds', () => {
    const voided = given(dealing).when(voidWith('misdeal')).events as TableEvent[];
    const old = voided.map((e) =>
      e.type === 'RoundVoided'
        ? ({ ...e, data: { ...e.data, reason: 'mis\u001b[2Jdeal\n' } } as TableEvent)
        : e,
    );
    expect(fold([...dealing, ...old]).round).toMatchObject({
      status: 'voided',
      voided: { reason: 'mis\u001b[2Jdeal\n' },
    });
  });
});
