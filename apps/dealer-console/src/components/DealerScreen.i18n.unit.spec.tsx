/**
 * The dealer screen's parts in Simplified Chinese: every key they ask for is in the catalogues, and no English is
 * left in what they show (only ids, codes and card spellings).
 */
import { render } from '@testing-library/react';
import type { RoundView, ShoeView, TableView } from '@coup/table';
import { fromLive } from '../roads/data';
import { RoadsView } from '../roads/Roads';
import { CardEntry } from './CardEntry';
import { ConfirmResultPanel } from './ConfirmResult';
import { Countdown } from './Countdown';
import { ActionBar, RefusalBox, allowed } from './DealerActions';
import { latinWords, missingKeysIn } from './i18nTesting';
import { NextCard } from './NextCard';
import { BetsPanel, EventLog, Hands, PlayersPanel, Result, RulesSummary, ShoePanel } from './TableParts';

const RULES = {
  dealing: 'live',
  decks: 8,
  tiePays: 8,
  commission: 'deducted',
  shuffle: 'shoe',
  limits: {
    player: { min: 100, max: 100_000 },
    banker: { min: 100, max: 100_000 },
    tie: { min: 100, max: 20_000 },
  },
  sideBets: { playerPair: { paytable: '11-to-1', min: 100, max: 10_000 } },
} as unknown as NonNullable<TableView['rules']>;

const ROUND = {
  roundNo: 4,
  shoeNo: 1,
  status: 'resolved',
  bets: {
    totals: { player: 1000, banker: 0, tie: 0, playerPair: 100 },
    bettors: 1,
    players: [{ playerId: 'alice', player: 1000, banker: 0, tie: 0, playerPair: 100 }],
  },
  cards: [
    { index: 0, to: 'player', card: 'Ah' },
    { index: 1, to: 'banker', card: 'Td' },
    { index: 2, to: 'player', card: '7c' },
    { index: 3, to: 'banker', card: 'Ks' },
  ],
  next: null,
  voided: null,
  result: {
    roundNo: 4,
    outcome: 'player',
    playerTotal: 8,
    bankerTotal: 0,
    natural: true,
    settlements: [
      { playerId: 'alice', spot: 'player', amount: 1000, result: 'win', paid: 2000, commission: 0 },
      {
        playerId: 'alice',
        spot: 'playerPair',
        amount: 100,
        result: 'lose',
        paid: 0,
        commission: 0,
        paytable: '11-to-1',
      },
    ],
  },
} as unknown as RoundView;

const SHOE = {
  shoeNo: 1,
  decks: 8,
  length: 416,
  cardsLeft: 300,
  dealing: 'live',
  cutIndex: 350,
  cutCardOut: false,
  coupsLeft: null,
  coups: 3,
  burn: { card: '5h', count: 5 },
  commitment: null,
  seed: null,
  ended: false,
  endReason: null,
  everyCoup: false,
} as unknown as ShoeView;

const VIEW = {
  phase: 'dealing',
  roundNo: 4,
  rules: RULES,
  players: [{ playerId: 'alice', chips: 50_000, commissionOwed: 0 }],
} as unknown as TableView;

/** Ids, codes, card spellings and the like: the same in every language. */
const ALLOWED = ['alice', 'Enter'];

it('shows the dealer screen in Chinese: every key in the catalogues, no English left', async () => {
  let text = '';
  const missing = await missingKeysIn('zh', async () => {
    const { container, unmount } = render(
      <>
        <ActionBar
          api={{} as never}
          tableId="T1"
          roundNo={4}
          role="supervisor"
          can={allowed(VIEW, 'supervisor')}
          ready
          run={async () => undefined}
          onNewShoe={() => undefined}
          onVoid={() => undefined}
        />
        <RefusalBox
          refusal={{ action: '发牌', code: 'CARD_NOT_IN_SHOE', message: 'not in the shoe' }}
          onDismiss={() => undefined}
        />
        <NextCard next={{ to: 'banker', slot: 'banker3' } as never} />
        <CardEntry label="输入牌" shortcut="e" onSubmit={() => undefined} />
        <Hands round={ROUND} />
        <ConfirmResultPanel
          tableId="T1"
          round={{ ...ROUND, status: 'dealing', result: null }}
          role="supervisor"
          enabled
          onConfirm={async () => undefined}
        />
        <Result round={ROUND} />
        <BetsPanel round={ROUND} />
        <ShoePanel shoe={SHOE} />
        <PlayersPanel view={VIEW} />
        <EventLog log={[{ revision: 7, type: 'CoupResolved', at: '2026-01-01T12:00:00.000Z' }]} />
        <RulesSummary rules={RULES} />
        <Countdown deadline="2026-01-01T12:00:30.000Z" now={Date.parse('2026-01-01T12:00:00.000Z')} />
        <RoadsView
          data={fromLive(1, [
            { roundNo: 1, outcome: 'banker', natural: true, playerTotal: 0, bankerTotal: 9 },
          ])}
        />
      </>,
    );
    text = container.textContent ?? '';
    const labels = [...container.querySelectorAll('[aria-label],[title],[placeholder]')].map((e) =>
      ['aria-label', 'title'].map((a) => e.getAttribute(a) ?? '').join(' '),
    );
    text += ` ${labels.join(' ')}`;
    unmount();
  });
  expect(missing).toEqual([]);
  expect(text).toContain('闲赢');
  expect(text).toContain('第 4 局已完成：核对结果，确认后结算');
  expect(latinWords(text, ALLOWED)).toEqual([]);
});
