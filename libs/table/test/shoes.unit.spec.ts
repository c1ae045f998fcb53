import { type Card, resolveCoup, seedFromHex, shuffleShoe } from '@coup/engine';
import { type TableEvent, decide, fold, tableView } from '../src';
import {
  T0,
  buy,
  cmd,
  commitOf,
  continueHistory,
  dealer,
  given,
  history,
  open,
  seed,
  supervisor,
} from './support';

const BURNS: [Card, number][] = [
  ['Ah', 1],
  ['2c', 2],
  ['7d', 7],
  ['9s', 9],
  ['Th', 10],
  ['Jc', 10],
  ['Qd', 10],
  ['Ks', 10],
];

describe('StartShoe on rng tables', () => {
  const s = seed('shoe-1');
  const shuffled = shuffleShoe(8, seedFromHex(s));
  const burnCount = BURNS.find(([c]) => c[0] === shuffled[0]![0])?.[1] ?? Number(shuffled[0]![0]);

  it('commits to the seed, turns the first card and burns per the engine', () => {
    given(history(open()))
      .when(cmd('StartShoe', { seed: s }))
      .then([
        {
          type: 'ShoeStarted',
          data: {
            shoeNo: 1,
            dealing: 'rng',
            shuffle: 'shoe',
            decks: 8,
            length: 416,
            commitment: commitOf(s),
            seed: s,
            burnCard: shuffled[0]!,
            burnCount,
            firstCoupIndex: 1 + burnCount,
            cutCard: 16,
            at: T0,
            by: dealer.id,
            role: 'dealer',
          },
        },
      ]);
  });

  it('normalizes an upper-case seed to lower case', () => {
    given(history(open()))
      .when(cmd('StartShoe', { seed: s.toUpperCase() }))
      .thenMatch([{ type: 'ShoeStarted', data: { seed: s, commitment: commitOf(s) } }]);
  });

  it('puts the table in phase ready with the shoe shown (seed hidden)', () => {
    const state = fold(history(open(), cmd('StartShoe', { seed: s })));
    expect(state.phase).toBe('ready');
    const view = tableView(state);
    expect(view.shoe).toMatchObject({
      shoeNo: 1,
      commitment: commitOf(s),
      seed: null,
      burn: { card: shuffled[0], count: burnCount },
      position: 1 + burnCount,
      cardsLeft: 416 - 1 - burnCount,
      cutIndex: 400,
      cutCardOut: false,
    });
    expect(JSON.stringify(view)).not.toContain(s);
  });

  it.each([
    ['missing', undefined],
    ['short', 'ab'.repeat(31)],
    ['not hex', 'zz'.repeat(32)],
    ['not a string', 12345],
  ])('refuses a %s seed: INVALID_SEED', (_label, bad) => {
    given(history(open()))
      .when(cmd('StartShoe', { seed: bad as string }))
      .then('INVALID_SEED');
  });

  it('refuses a firstCard: WRONG_DEALING_MODE', () => {
    given(history(open()))
      .when(cmd('StartShoe', { seed: s, firstCard: 'Ah' }))
      .then('WRONG_DEALING_MODE');
  });

  it('refuses while a shoe is in progress: SHOE_IN_PROGRESS (ready, betting, dealing)', () => {
    const ready = history(open(), cmd('StartShoe', { seed: s }));
    given(ready)
      .when(cmd('StartShoe', { seed: seed(2) }))
      .then('SHOE_IN_PROGRESS');
    const betting = continueHistory(ready, cmd('OpenBetting', {}));
    given(betting)
      .when(cmd('StartShoe', { seed: seed(2) }))
      .then('SHOE_IN_PROGRESS');
    const dealing = continueHistory(betting, cmd('CloseBetting', { roundNo: 1 }));
    given(dealing)
      .when(cmd('StartShoe', { seed: seed(2) }))
      .then('SHOE_IN_PROGRESS');
  });

  it('starts no burn and no cut card on every-coup tables', () => {
    given(history(open({ shuffle: 'every-coup' })))
      .when(cmd('StartShoe', { seed: s }))
      .thenMatch([
        {
          type: 'ShoeStarted',
          data: {
            shuffle: 'every-coup',
            burnCard: null,
            burnCount: 0,
            firstCoupIndex: 0,
            cutCard: null,
            commitment: commitOf(s),
          },
        },
      ]);
  });

  it('is taken from a supervisor too', () => {
    given(history(open()))
      .when(cmd('StartShoe', { seed: s }, supervisor))
      .thenMatch([{ type: 'ShoeStarted' }]);
  });
});

describe('StartShoe on live tables', () => {
  const opened = history(open({ dealing: 'live' }));

  it.each(BURNS)('records the turned card %s and the burn count %d', (card, burn) => {
    given(opened)
      .when(cmd('StartShoe', { firstCard: card }))
      .then([
        {
          type: 'ShoeStarted',
          data: {
            shoeNo: 1,
            dealing: 'live',
            shuffle: 'shoe',
            decks: 8,
            length: 416,
            commitment: null,
            seed: null,
            burnCard: card,
            burnCount: burn,
            firstCoupIndex: 1 + burn,
            cutCard: 16,
            at: T0,
            by: dealer.id,
            role: 'dealer',
          },
        },
      ]);
  });

  it('takes the turned card out of the shoe composition', () => {
    const state = fold(continueHistory(opened, cmd('StartShoe', { firstCard: 'As' })));
    expect(state.shoe?.remaining?.['As']).toBe(7);
    expect(state.shoe?.remaining?.['Ah']).toBe(8);
  });

  it('refuses a missing or bad firstCard: INVALID_CARD', () => {
    given(opened).when(cmd('StartShoe', {})).then('INVALID_CARD');
    given(opened)
      .when(cmd('StartShoe', { firstCard: '1h' }))
      .then('INVALID_CARD');
    given(opened)
      .when(cmd('StartShoe', { firstCard: 'ahh' }))
      .then('INVALID_CARD');
  });

  it("takes the console's spellings of the first card (10h, ah) and records the engine's", () => {
    given(opened)
      .when(cmd('StartShoe', { firstCard: '10h' }))
      .thenMatch([{ type: 'ShoeStarted', data: { burnCard: 'Th' } }]);
    given(opened)
      .when(cmd('StartShoe', { firstCard: ' ah ' }))
      .thenMatch([{ type: 'ShoeStarted', data: { burnCard: 'Ah' } }]);
  });

  it('refuses a seed: WRONG_DEALING_MODE', () => {
    given(opened)
      .when(cmd('StartShoe', { firstCard: 'Ah', seed: seed(1) }))
      .then('WRONG_DEALING_MODE');
  });
});

describe('OpenBetting without a shoe', () => {
  it('is refused SHOE_NOT_STARTED on shoe tables', () => {
    given(history(open())).when(cmd('OpenBetting', {})).then('SHOE_NOT_STARTED');
    given(history(open({ dealing: 'live' })))
      .when(cmd('OpenBetting', {}))
      .then('SHOE_NOT_STARTED');
  });

  it('refuses a seed on shoe tables: WRONG_DEALING_MODE', () => {
    given(history(open()))
      .when(cmd('OpenBetting', { seed: seed(1) }))
      .then('WRONG_DEALING_MODE');
  });
});

describe('EndShoe (supervisor)', () => {
  const s = seed('end');
  it('ends the shoe between rounds and reveals the seed', () => {
    const then = given(history(open(), cmd('StartShoe', { seed: s })))
      .when(cmd('EndShoe', {}))
      .then([
        {
          type: 'ShoeEnded',
          data: {
            shoeNo: 1,
            seed: s,
            reason: 'supervisor',
            coups: 0,
            at: T0,
            by: supervisor.id,
            role: 'supervisor',
          },
        },
      ]);
    expect(then.state.phase).toBe('idle');
    expect(tableView(then.state).shoe).toMatchObject({ seed: s, ended: true, endReason: 'supervisor' });
  });

  it('is refused with no shoe: SHOE_NOT_STARTED, and during a round: WRONG_PHASE', () => {
    given(history(open())).when(cmd('EndShoe', {})).then('SHOE_NOT_STARTED');
    given(history(open(), cmd('StartShoe', { seed: s }), cmd('EndShoe', {})))
      .when(cmd('EndShoe', {}))
      .then('SHOE_NOT_STARTED');
    given(history(open(), cmd('StartShoe', { seed: s }), cmd('OpenBetting', {})))
      .when(cmd('EndShoe', {}))
      .then('WRONG_PHASE');
  });

  it('lets the next shoe start with the next number', () => {
    given(history(open(), cmd('StartShoe', { seed: s }), cmd('EndShoe', {})))
      .when(cmd('StartShoe', { seed: seed('next') }))
      .thenMatch([{ type: 'ShoeStarted', data: { shoeNo: 2 } }]);
  });
});

/** Plays rounds (open, close, deal) until the shoe ends; returns every event and the events of each round. */
function playRngShoe(events: TableEvent[], maxRounds = 200): { all: TableEvent[]; rounds: TableEvent[][] } {
  const all = [...events];
  const rounds: TableEvent[][] = [];
  for (let i = 0; i < maxRounds; i++) {
    const state = fold(all);
    if (state.phase !== 'ready') break;
    const roundNo = state.roundNo + 1;
    const round: TableEvent[] = [];
    for (const c of [cmd('OpenBetting', {}), cmd('CloseBetting', { roundNo }), cmd('Deal', { roundNo })]) {
      const d = decide(c, fold(all));
      if (!d.ok) throw new Error(`${c.type}: ${d.error.code}`);
      all.push(...d.events);
      round.push(...d.events);
    }
    rounds.push(round);
  }
  return { all, rounds };
}

describe('a whole rng shoe: burn, coups, cut card, one more coup, shoe end', () => {
  for (const [decks, cutCard] of [
    [8, 16],
    [6, 14],
    [1, 12],
  ] as const) {
    it(`${decks} decks, cut card ${cutCard}`, () => {
      const s = seed(`whole-${decks}`);
      const start = history(open({ decks, cutCard }), buy('p1', 10_000), cmd('StartShoe', { seed: s }));
      const shuffled = shuffleShoe(decks, seedFromHex(s));
      const started = start.find((e) => e.type === 'ShoeStarted')!;
      if (started.type !== 'ShoeStarted') throw new Error();
      const { all, rounds } = playRngShoe(start);
      const cutIndex = decks * 52 - cutCard;

      // cards are dealt in shoe order from the first coup index, each coup as the engine resolves it
      let position = started.data.firstCoupIndex;
      let cutOutInRound = -1;
      rounds.forEach((round, r) => {
        const dealt = round.flatMap((e) => (e.type === 'CardDealt' ? [e.data] : []));
        expect(dealt.map((d) => d.shoePosition)).toEqual(dealt.map((_, i) => position + i));
        expect(dealt.map((d) => d.card)).toEqual(shuffled.slice(position, position + dealt.length));
        const coup = round.find((e) => e.type === 'CoupResolved');
        const expected = resolveCoup(shuffled.slice(position, position + 6));
        expect(coup?.data).toMatchObject({
          playerCards: expected.playerCards,
          bankerCards: expected.bankerCards,
          outcome: expected.outcome,
          natural: expected.natural,
          cardsUsed: expected.cardsUsed,
        });
        if (cutOutInRound < 0 && position + dealt.length - 1 >= cutIndex) cutOutInRound = r;
        position += dealt.length;
      });
      // the cut card came out, exactly one more coup was played, and the shoe ended with it
      expect(cutOutInRound).toBe(rounds.length - 2);
      const ended = rounds[rounds.length - 1]!.filter((e) => e.type === 'ShoeEnded');
      expect(ended).toEqual([
        {
          type: 'ShoeEnded',
          data: {
            shoeNo: 1,
            seed: s,
            reason: 'cut-card',
            coups: rounds.length,
            at: T0,
            by: dealer.id,
            role: 'dealer',
          },
        },
      ]);
      expect(all.filter((e) => e.type === 'ShoeEnded')).toHaveLength(1);
      const state = fold(all);
      expect(state.phase).toBe('idle');
      expect(tableView(state).shoe).toMatchObject({ seed: s, ended: true, cutCardOut: true, coupsLeft: 0 });
      // and a new shoe can start
      given(all)
        .when(cmd('StartShoe', { seed: seed('again') }))
        .thenMatch([{ type: 'ShoeStarted', data: { shoeNo: 2 } }]);
    });
  }
});
