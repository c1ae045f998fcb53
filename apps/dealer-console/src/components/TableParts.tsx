/** Presentational pieces of the table screen: each takes part of the service's view and draws it. */
import { type Card, handTotal } from '@coup/engine';
import type { RoundView, ShoeView, TableView } from '@coup/table';
import type { LoggedEvent } from '../feed';
import { cardFace, money } from '../format';
import { SideBetsTable } from './SideBets';

export { LastCoup, Result } from './Payouts';
export { RulesSummary } from './SideBets';

export function PlayingCard({ card, order }: { readonly card: Card; readonly order?: number }) {
  const f = cardFace(card);
  return (
    <span className={`playing-card${f.red ? ' red' : ''}`} aria-label={f.words} title={f.words}>
      {order !== undefined && <span className="card-order">{order}</span>}
      <span className="card-rank">{f.rank}</span>
      <span className="card-suit">{f.suit}</span>
    </span>
  );
}

/** Player and banker hands as they fall, each card numbered in dealing order, with the running totals. */
export function Hands({ round }: { readonly round: RoundView | null }) {
  const cards = round?.cards ?? [];
  const outcome = round?.result?.outcome ?? null;
  const hand = (side: 'player' | 'banker') => {
    const mine = cards.filter((c) => c.to === side);
    const won = outcome === side;
    return (
      <section className={`hand hand-${side}${won ? ' won' : ''}`} aria-label={`${side} hand`}>
        <h3>
          {side === 'player' ? 'Player' : 'Banker'}
          {mine.length > 0 && <span className="total">{handTotal(mine.map((c) => c.card))}</span>}
          {won && <span className="badge">wins</span>}
        </h3>
        <div className="cards">
          {mine.length === 0 ? (
            <span className="muted">no cards</span>
          ) : (
            mine.map((c) => <PlayingCard key={c.index} card={c.card} order={c.index + 1} />)
          )}
        </div>
      </section>
    );
  };
  return (
    <div className="hands">
      {hand('player')}
      {hand('banker')}
    </div>
  );
}

export function ShoePanel({ shoe }: { readonly shoe: ShoeView | null }) {
  if (shoe === null) return <section className="panel">No shoe yet.</section>;
  return (
    <section className="panel" aria-label="shoe">
      <h3>
        Shoe {shoe.shoeNo} {shoe.ended && <span className="badge">ended ({shoe.endReason})</span>}
      </h3>
      <dl className="facts">
        <dt>cards left</dt>
        <dd>
          {shoe.cardsLeft} of {shoe.length} ({shoe.decks} decks, {shoe.dealing})
        </dd>
        <dt>cut card</dt>
        <dd>
          {shoe.cutIndex === null
            ? 'none (fresh shuffle every coup)'
            : shoe.cutCardOut
              ? `OUT: ${shoe.coupsLeft === 0 ? 'last coup dealt' : 'one more coup'}`
              : `at card ${shoe.cutIndex + 1}`}
        </dd>
        <dt>coups</dt>
        <dd>{shoe.coups}</dd>
        {shoe.burn.card && (
          <>
            <dt>turned</dt>
            <dd>
              <PlayingCard card={shoe.burn.card} /> burn {shoe.burn.count}
            </dd>
          </>
        )}
        {shoe.commitment && (
          <>
            <dt>commitment</dt>
            <dd className="hash" title={shoe.commitment}>
              {shoe.commitment}
            </dd>
          </>
        )}
        {shoe.seed && (
          <>
            <dt>seed</dt>
            <dd className="hash">{shoe.seed}</dd>
          </>
        )}
      </dl>
    </section>
  );
}

export function BetsPanel({ round }: { readonly round: RoundView | null }) {
  if (round === null) return null;
  const { totals, players, bettors } = round.bets;
  return (
    <section className="panel" aria-label="bets">
      <h3>
        Bets, round {round.roundNo} <span className="muted">({bettors} players)</span>
      </h3>
      <table className="grid">
        <thead>
          <tr>
            <th />
            <th className="spot-player">Player</th>
            <th className="spot-banker">Banker</th>
            <th className="spot-tie">Tie</th>
          </tr>
        </thead>
        <tbody>
          {players.map((p) => (
            <tr key={p.playerId}>
              <td>{p.playerId}</td>
              <td>{p.player ? money(p.player) : ''}</td>
              <td>{p.banker ? money(p.banker) : ''}</td>
              <td>{p.tie ? money(p.tie) : ''}</td>
            </tr>
          ))}
          <tr className="totals">
            <td>total</td>
            <td>{money(totals.player)}</td>
            <td>{money(totals.banker)}</td>
            <td>{money(totals.tie)}</td>
          </tr>
        </tbody>
      </table>
      <SideBetsTable round={round} />
    </section>
  );
}

export function PlayersPanel({ view }: { readonly view: TableView }) {
  return (
    <section className="panel" aria-label="players">
      <h3>Players</h3>
      {view.players.length === 0 ? (
        <p className="muted">Nobody seated.</p>
      ) : (
        <table className="grid">
          <thead>
            <tr>
              <th>player</th>
              <th>chips</th>
              <th title="commission owed to the box">box owed</th>
            </tr>
          </thead>
          <tbody>
            {view.players.map((p) => (
              <tr key={p.playerId}>
                <td>{p.playerId}</td>
                <td>{money(p.chips)}</td>
                <td>{p.commissionOwed ? money(p.commissionOwed) : ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export function EventLog({ log }: { readonly log: readonly LoggedEvent[] }) {
  return (
    <section className="panel event-log" aria-label="events">
      <h3>Events</h3>
      <ol reversed>
        {log.map((e) => (
          <li key={e.revision}>
            <span className="muted">#{e.revision}</span> {e.type}
          </li>
        ))}
      </ol>
    </section>
  );
}
