/** Presentational pieces of the table screen: each takes part of the service's view and draws it. */
import { type Card, handTotal } from '@coup/engine';
import type { RoundView, ShoeView, TableView } from '@coup/table';
import { useTranslation } from 'react-i18next';
import type { LoggedEvent } from '../feed';
import { cardFace, money } from '../format';
import { formatTime } from '../i18n';
import { SideBetsTable } from './SideBets';
import { cardWords } from './words';

export { LastCoup, Result } from './Payouts';
export { RulesSummary } from './SideBets';

export function PlayingCard({ card, order }: { readonly card: Card; readonly order?: number }) {
  const { t } = useTranslation('game');
  const f = cardFace(card);
  const words = cardWords(card, t);
  return (
    <span className={`playing-card${f.red ? ' red' : ''}`} role="img" aria-label={words} title={words}>
      {order !== undefined && (
        <span className="card-order" aria-hidden="true">
          {order}
        </span>
      )}
      <span className="card-rank" aria-hidden="true">
        {f.rank}
      </span>
      <span className="card-suit" aria-hidden="true">
        {f.suit}
      </span>
    </span>
  );
}

/** Player and banker hands as they fall, each card numbered in dealing order, with the running totals. */
export function Hands({ round }: { readonly round: RoundView | null }) {
  const { t } = useTranslation('dealer');
  const cards = round?.cards ?? [];
  const outcome = round?.result?.outcome ?? null;
  const hand = (side: 'player' | 'banker') => {
    const mine = cards.filter((c) => c.to === side);
    const won = outcome === side;
    return (
      <section className={`hand hand-${side}${won ? ' won' : ''}`} aria-label={t(`hands.${side}Region`)}>
        <h3>
          {t(`hands.${side}`)}
          {mine.length > 0 && <span className="total">{handTotal(mine.map((c) => c.card))}</span>}
          {won && <span className="badge">{t('hands.wins')}</span>}
        </h3>
        <div className="cards">
          {mine.length === 0 ? (
            <span className="no-cards">{t('hands.noCards')}</span>
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

function CutCard({ shoe }: { readonly shoe: ShoeView }) {
  const { t } = useTranslation('dealer');
  if (shoe.cutIndex === null) return <>{t('shoe.noCut')}</>;
  if (!shoe.cutCardOut) return <>{t('shoe.cutAt', { n: shoe.cutIndex + 1 })}</>;
  return <>{shoe.coupsLeft === 0 ? t('shoe.cutOutLast') : t('shoe.cutOutOneMore')}</>;
}

export function ShoePanel({ shoe }: { readonly shoe: ShoeView | null }) {
  const { t } = useTranslation('dealer');
  if (shoe === null) return <section className="panel">{t('shoe.none')}</section>;
  const dealing = t(`game:dealing.${shoe.dealing}`);
  return (
    <section className="panel" aria-label={t('shoe.region')}>
      <h3>
        {t('shoe.title', { shoeNo: shoe.shoeNo })}{' '}
        {shoe.ended && (
          <span className="badge">
            {t('shoe.ended', { reason: t(`shoe.endReasons.${shoe.endReason}`, shoe.endReason ?? '') })}
          </span>
        )}
      </h3>
      <dl className="facts">
        <dt>{t('shoe.cardsLeft')}</dt>
        <dd>
          {t('shoe.cardsLeftValue', {
            left: shoe.cardsLeft,
            length: shoe.length,
            decks: shoe.decks,
            dealing,
          })}
        </dd>
        <dt>{t('shoe.cutCard')}</dt>
        <dd>
          <CutCard shoe={shoe} />
        </dd>
        <dt>{t('shoe.coups')}</dt>
        <dd>{shoe.coups}</dd>
        {shoe.burn.card && (
          <>
            <dt>{t('shoe.turned')}</dt>
            <dd>
              <PlayingCard card={shoe.burn.card} /> {t('shoe.burn', { n: shoe.burn.count })}
            </dd>
          </>
        )}
        {shoe.commitment && (
          <>
            <dt>{t('shoe.commitment')}</dt>
            <dd className="hash" title={shoe.commitment}>
              {shoe.commitment}
            </dd>
          </>
        )}
        {shoe.seed && (
          <>
            <dt>{t('shoe.seed')}</dt>
            <dd className="hash">{shoe.seed}</dd>
          </>
        )}
      </dl>
    </section>
  );
}

export function BetsPanel({ round }: { readonly round: RoundView | null }) {
  const { t } = useTranslation('dealer');
  if (round === null) return null;
  const { totals, players, bettors } = round.bets;
  return (
    <section className="panel" aria-label={t('bets.region')}>
      <h3>
        {t('bets.title', { roundNo: round.roundNo })}{' '}
        <span className="muted">{t('bets.bettors', { count: bettors })}</span>
      </h3>
      <table className="grid">
        <thead>
          <tr>
            <th>
              <span className="visually-hidden">{t('bets.player')}</span>
            </th>
            <th className="spot-player">{t('game:spots.player')}</th>
            <th className="spot-banker">{t('game:spots.banker')}</th>
            <th className="spot-tie">{t('game:spots.tie')}</th>
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
            <td>{t('bets.total')}</td>
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
  const { t } = useTranslation('dealer');
  return (
    <section className="panel" aria-label={t('players.region')}>
      <h3>{t('players.title')}</h3>
      {view.players.length === 0 ? (
        <p className="muted">{t('players.nobody')}</p>
      ) : (
        <table className="grid">
          <thead>
            <tr>
              <th>{t('players.player')}</th>
              <th>{t('players.chips')}</th>
              <th title={t('players.owedTitle')}>{t('players.owed')}</th>
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

/** The latest events, newest first, each with its time in the casino's time zone; the list scrolls in its panel. */
export function EventLog({ log }: { readonly log: readonly LoggedEvent[] }) {
  const { t } = useTranslation('dealer');
  return (
    <section className="panel event-log" aria-labelledby="event-log-title">
      <h3 id="event-log-title">{t('events.title')}</h3>
      {/* scrollable: reachable by keyboard */}
      <ol reversed tabIndex={0} aria-labelledby="event-log-title">
        {log.map((e) => (
          <li key={e.revision}>
            <span className="muted">#{e.revision}</span>{' '}
            <time dateTime={e.at}>{formatTime(e.at, { dateStyle: undefined })}</time>{' '}
            {t(`events.types.${e.type}`, e.type)}
          </li>
        ))}
      </ol>
    </section>
  );
}
