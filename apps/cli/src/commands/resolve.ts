import { EngineError, parseCard, resolveCoup, type Card, type CoupResult } from '@coup/engine';
import { parseArgs } from '../args';
import type { Command } from '../command';
import { table } from '../format';
import { EXIT, UsageError } from '../io';

const OPTIONS = { json: { type: 'boolean' } } as const;

function describe(r: CoupResult, given: readonly Card[]): string {
  const score =
    r.outcome === 'banker' ? `${r.bankerTotal} to ${r.playerTotal}` : `${r.playerTotal} to ${r.bankerTotal}`;
  const winner =
    r.outcome === 'tie' ? `Tie, ${score}` : `${r.outcome === 'player' ? 'Player' : 'Banker'} wins, ${score}`;
  const naturals = [
    r.playerTotal >= 8 ? `player ${r.playerTotal}` : '',
    r.bankerTotal >= 8 ? `banker ${r.bankerTotal}` : '',
  ].filter(Boolean);
  // Dealing order: player, banker, player, banker; a fifth card is the player's if the player drew.
  const order = [
    'player',
    'banker',
    'player',
    'banker',
    r.playerCards.length === 3 ? 'player' : 'banker',
    'banker',
  ];
  const dealt = given.slice(0, r.cardsUsed).map((card, i) => `${card} to ${order[i]}`);
  const unused = given.slice(r.cardsUsed);
  return [
    table(
      [
        ['Player', r.playerCards.join(' '), `total ${r.playerTotal}`],
        ['Banker', r.bankerCards.join(' '), `total ${r.bankerTotal}`],
      ],
      [],
      '',
    ),
    `${winner}.`,
    r.natural ? `Natural (${naturals.join(' and ')} on two cards): both hands stand.` : 'No natural.',
    `Dealt: ${dealt.join(', ')}.`,
    `Cards used: ${r.cardsUsed} of ${given.length}${unused.length > 0 ? ` (not used: ${unused.join(' ')})` : ''}.`,
  ].join('\n');
}

/** `coup resolve`: play one coup from cards in dealing order and show it. */
export const resolve: Command = {
  name: 'resolve',
  summary: 'play one coup from cards in dealing order and show the hands, totals and outcome',
  usage: [
    'coup resolve CARD CARD CARD CARD [CARD [CARD]] [--json]',
    '',
    '  Cards are rank then suit: A 2 3 4 5 6 7 8 9 T J Q K and c d h s (Ah, Td, Ks).',
    '  They are dealt player, banker, player, banker, then third cards as the tableau calls for them.',
    '  --json   print the result as JSON',
    '',
    '  Example: coup resolve Ah 9d 3c Ks',
  ].join('\n'),
  run(args, io) {
    const { options, positionals } = parseArgs('resolve', args, OPTIONS, true);
    if (positionals.length === 0) throw new UsageError('no cards given: a coup needs at least 4', 'resolve');
    const cards = positionals.map((c, i) => {
      try {
        return parseCard(c);
      } catch (e) {
        if (e instanceof EngineError) throw new UsageError(`card ${i + 1}: ${e.message}`, 'resolve');
        throw e;
      }
    });
    let result: CoupResult;
    try {
      result = resolveCoup(cards);
    } catch (e) {
      if (e instanceof EngineError && e.code === 'NOT_ENOUGH_CARDS') {
        const { needed, exact } = e.details as { needed: number; exact: boolean };
        throw new UsageError(
          `not enough cards: this coup needs ${exact ? '' : 'at least '}${needed}, got ${cards.length}`,
          'resolve',
        );
      }
      throw e;
    }
    io.stdout.write(options.json ? `${JSON.stringify(result, null, 2)}\n` : `${describe(result, cards)}\n`);
    return EXIT.ok;
  },
};
