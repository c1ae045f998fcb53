/**
 * Chips stay exact. A probe found that BuyIn kept the chips a safe integer but settlement did not: a player bought
 * in to the largest balance allowed who won a tie at 8:1 on a table with $10bn limits ended past
 * Number.MAX_SAFE_INTEGER, with inexact cents. Now a bet or a rebet is refused (INVALID_AMOUNT, as such a buy-in)
 * when the chips left plus the round's best case (every stake returned with the best payout its spot can pay, side
 * bets included) would pass Number.MAX_SAFE_INTEGER, and likewise the box commission owed; a buy-in leaves the same
 * room for the player's stakes still to settle (on the layout, or in the coup just settled, which a correction may
 * settle again). So no settlement or correction can take the chips past it.
 */
import { type TableCommand, type TableEvent, fold, playerOf } from '../src';
import {
  CARDS,
  T0,
  admin,
  bet,
  buy,
  cmd,
  continueHistory,
  dealCards,
  given,
  history,
  open,
  player,
  supervisor,
} from './support';

const MAX = Number.MAX_SAFE_INTEGER;
/** Ten billion dollars: the largest limit a table takes. */
const BIG = 1_000_000_000_000;
const LIMIT = { min: 100, max: BIG };
const TEN_BN = { limits: { player: LIMIT, banker: LIMIT, tie: LIMIT }, chips: [100] };
/** Player 4s 4s, banker 4h 4h: natural 8 each, a tie, and a perfect pair in both hands. */
const PERFECT_TIE = ['4s', '4h', '4s', '4h'];

/** A live $10bn table (tie 8:1 unless `rules` say otherwise), p1 bought in for `chips`, round 1 open. */
function table(chips: number, rules: Record<string, unknown> = {}): TableEvent[] {
  return history(
    open({ dealing: 'live', ...TEN_BN, ...rules }),
    buy('p1', chips),
    cmd('StartShoe', { firstCard: '5h' }),
    cmd('OpenBetting', {}),
  );
}

function play(events: readonly TableEvent[], ...commands: TableCommand[]): TableEvent[] {
  return continueHistory(events, ...commands);
}

const chipsOf = (events: readonly TableEvent[]) => playerOf(fold(events), 'p1')!.chips;
const deal = (roundNo: number, cards: readonly string[]) => [
  cmd('CloseBetting', { roundNo }),
  ...dealCards(roundNo, cards),
];

describe('PlaceBet keeps the chips exact whatever the coup', () => {
  it("refuses the probe's bet: $10bn on a tie at 8:1 by a player holding the largest buy-in", () => {
    given(table(MAX))
      .when(bet(1, 'p1', 'tie', BIG))
      .then('INVALID_AMOUNT', { playerId: 'p1', amount: BIG, chips: MAX, bestCase: 9 * BIG, max: MAX });
  });

  it('takes the bet whose best case ends exactly at the largest exact balance, and the tie pays it exactly', () => {
    const betting = table(MAX - 8 * BIG);
    given(betting)
      .when(bet(1, 'p1', 'tie', BIG))
      .thenMatch([{ type: 'BetPlaced', data: { amount: BIG, chips: MAX - 9 * BIG } }]);
    const won = play(betting, bet(1, 'p1', 'tie', BIG), ...deal(1, CARDS.tieNaturals));
    expect(chipsOf(won)).toBe(MAX);
  });

  it('refuses it with one cent more in the chips', () => {
    given(table(MAX - 8 * BIG + 1))
      .when(bet(1, 'p1', 'tie', BIG))
      .then('INVALID_AMOUNT', { chips: MAX - 8 * BIG + 1, bestCase: 9 * BIG });
  });

  it('counts the 9:1 tie at its own payout', () => {
    given(table(MAX - 9 * BIG, { tiePays: 9 }))
      .when(bet(1, 'p1', 'tie', BIG))
      .thenMatch([{ type: 'BetPlaced' }]);
    given(table(MAX - 9 * BIG + 1, { tiePays: 9 }))
      .when(bet(1, 'p1', 'tie', BIG))
      .then('INVALID_AMOUNT', { bestCase: 10 * BIG });
  });

  it("counts every stake of the player's round, side bets at their best payout (a Perfect Pair in both hands, 200:1)", () => {
    const rules = { sideBets: { perfectPair: { paytable: '25-or-200-to-1', min: 100, max: BIG } } };
    const room = MAX - 8 * BIG - 200 * BIG; // the tie 9x and the perfect pair 201x, less the two stakes
    const betting = play(table(room, rules), bet(1, 'p1', 'tie', BIG));
    const perfectPair = cmd(
      'PlaceBet',
      { roundNo: 1, playerId: 'p1', spot: 'perfectPair', amount: BIG },
      player('p1'),
    );
    given(betting)
      .when(perfectPair)
      .thenMatch([{ type: 'BetPlaced', data: { spot: 'perfectPair', chips: room - 2 * BIG } }]);
    // the best case happens: a tie with a perfect pair in each hand
    expect(chipsOf(play(betting, perfectPair, ...deal(1, PERFECT_TIE)))).toBe(MAX);
    given(play(table(room + 100, rules), bet(1, 'p1', 'tie', BIG)))
      .when(perfectPair)
      .then('INVALID_AMOUNT', { bestCase: 9 * BIG + 201 * BIG });
  });
});

describe('Rebet keeps the chips exact whatever the coup', () => {
  // round 1: a $10bn tie bet lost to a banker natural; round 2 open (round 1 can no longer be corrected)
  const lost = play(table(10 * BIG), bet(1, 'p1', 'tie', BIG), ...deal(1, CARDS.bankerNatural));
  const round2 = play(lost, cmd('OpenBetting', {}));
  const rebet = cmd('Rebet', { roundNo: 2, playerId: 'p1' }, player('p1'));

  it('repeats the bets when their best case ends exactly at the largest exact balance', () => {
    const atRoom = play(round2, buy('p1', MAX - 8 * BIG - 9 * BIG));
    expect(chipsOf(atRoom)).toBe(MAX - 8 * BIG);
    given(atRoom)
      .when(rebet)
      .thenMatch([{ type: 'BetPlaced', data: { spot: 'tie', amount: BIG, rebet: true } }]);
  });

  it('refuses them with one cent more in the chips: INVALID_AMOUNT', () => {
    given(play(round2, buy('p1', MAX - 8 * BIG - 9 * BIG + 1)))
      .when(rebet)
      .then('INVALID_AMOUNT', { playerId: 'p1', amount: BIG, bestCase: 9 * BIG });
  });
});

describe('BuyIn leaves room for the stakes still to settle', () => {
  it("the best case of the player's stakes on the layout", () => {
    const staked = play(table(10 * BIG), bet(1, 'p1', 'tie', BIG)); // 9bn left, 9bn at best to come
    given(staked)
      .when(buy('p1', MAX - 18 * BIG + 1))
      .then('INVALID_AMOUNT', { amount: MAX - 18 * BIG + 1 });
    const full = play(staked, buy('p1', MAX - 18 * BIG));
    expect(chipsOf(play(full, ...deal(1, CARDS.tieNaturals)))).toBe(MAX);
  });

  it('what a correction of the coup just settled could add to what it paid', () => {
    // the tie bet lost (player 9 against banker 7): a correction may still make it a tie paying 9bn
    const settled = play(table(10 * BIG), bet(1, 'p1', 'tie', BIG), ...deal(1, CARDS.playerNatural));
    expect(chipsOf(settled)).toBe(9 * BIG);
    given(settled)
      .when(buy('p1', MAX - 18 * BIG + 1))
      .then('INVALID_AMOUNT');
    const full = play(settled, buy('p1', MAX - 18 * BIG));
    // the banker's second card was a 4, not a 2: banker 9 ties the player's 9
    const corrected = play(
      full,
      cmd('CorrectCard', { roundNo: 1, index: 3, card: '4d', reason: 'misread' }, supervisor),
    );
    expect(chipsOf(corrected)).toBe(MAX);
  });

  it('nothing once the next round opens (the settled coup can no longer be corrected)', () => {
    const settled = play(table(10 * BIG), bet(1, 'p1', 'tie', BIG), ...deal(1, CARDS.playerNatural));
    given(play(settled, cmd('OpenBetting', {})))
      .when(buy('p1', MAX - 9 * BIG))
      .thenMatch([{ type: 'PlayerBoughtIn', data: { chips: MAX } }]);
  });
});

describe('the box commission owed stays exact too', () => {
  /** p1 owing `owed` in box commission (as after a cash-out its chips did not cover), then bought in again. */
  function owing(owed: number): TableEvent[] {
    const opened = history(open({ dealing: 'live', commission: 'box', ...TEN_BN }));
    const cashedOut: TableEvent = {
      type: 'PlayerCashedOut',
      data: {
        playerId: 'p1',
        paid: 0,
        commissionCollected: 0,
        commissionOwed: owed,
        at: T0,
        by: admin.id,
        role: 'admin',
      },
    };
    return play(
      [...opened, cashedOut],
      buy('p1', 10 * BIG),
      cmd('StartShoe', { firstCard: '5h' }),
      cmd('OpenBetting', {}),
    );
  }

  it('takes a banker bet whose commission at best brings it exactly to the largest exact amount', () => {
    const commission = BIG / 20;
    const won = play(owing(MAX - commission), bet(1, 'p1', 'banker', BIG), ...deal(1, CARDS.bankerNatural));
    expect(playerOf(fold(won), 'p1')!.commissionOwed).toBe(MAX);
  });

  it('refuses it owing one cent more: INVALID_AMOUNT', () => {
    given(owing(MAX - BIG / 20 + 1))
      .when(bet(1, 'p1', 'banker', BIG))
      .then('INVALID_AMOUNT', {
        playerId: 'p1',
        amount: BIG,
        commissionOwed: MAX - BIG / 20 + 1,
        bestCommission: BIG / 20,
      });
  });
});
