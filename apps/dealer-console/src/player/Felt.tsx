/** The felt: the two hands dealt card by card, the coup's result, the bet fields, the actions and the commitment. */
import type { TableRules } from '@coup/table';
import { Trans, useTranslation } from 'react-i18next';
import { PlayingCard } from '../components/TableParts';
import { canDeal, dealHint } from './betting';
import { BetActions, BetFields } from './BetControls';
import { CoupResult } from './CoupResult';
import { dealingOrder, shownTotal, type DealtCard } from './dealing';
import type { PlayerActions, Shown, usePlayerTable } from './usePlayerTable';

function Hand({ side, visible, won }: { side: 'player' | 'banker'; visible: DealtCard[]; won: boolean }) {
  const { t } = useTranslation('player');
  const total = shownTotal(visible, side);
  const name = t(`hands.${side}`);
  return (
    <section className={`felt-hand hand-${side}${won ? ' won' : ''}`} aria-label={t(`hands.${side}Region`)}>
      <h3>
        {name}{' '}
        {total !== null && (
          <span className="total">
            <span className="visually-hidden">{t('hands.total', { side: name })} </span>
            {total}
          </span>
        )}
        {won && <span className="hand-wins">{t('hands.wins')}</span>}
      </h3>
      <div className="cards" data-testid={`${side}-cards`}>
        {visible
          .filter((c) => c.to === side)
          .map((c) => (
            <PlayingCard key={c.order} card={c.card} order={c.order} />
          ))}
      </div>
    </section>
  );
}

/** The hands as far as dealt, and the result once the last card is shown. */
function Coup({ shown, dealing }: { readonly shown: Shown | null; readonly dealing: boolean }) {
  const { t } = useTranslation('player');
  const order = shown ? dealingOrder(shown.coup) : [];
  const visible = shown ? order.slice(0, shown.count) : [];
  const complete = shown !== null && shown.count >= order.length;
  return (
    <>
      <div className="felt-hands">
        {(['player', 'banker'] as const).map((side) => (
          <Hand key={side} side={side} visible={visible} won={complete && shown?.coup.outcome === side} />
        ))}
      </div>
      <div className="felt-result" aria-live="polite">
        {shown && complete && <CoupResult shown={shown} />}
        {dealing && <p className="muted">{t('dealing')}</p>}
      </div>
    </>
  );
}

type Table = ReturnType<typeof usePlayerTable>;

export function Felt({
  table,
  rules,
  onBet,
  actions,
}: {
  readonly table: Pick<Table, 'shown' | 'dealing' | 'betting' | 'locked' | 'bets' | 'total' | 'view'>;
  readonly rules: TableRules;
  /** A bet of the selected chip. */
  readonly onBet: Parameters<typeof BetFields>[0]['onBet'];
  readonly actions: Pick<PlayerActions, 'clear' | 'rebet' | 'deal'>;
}) {
  const { t } = useTranslation('player');
  const { shown, dealing, betting, locked, bets, total, view } = table;
  return (
    <section className="felt" aria-label={t('felt')}>
      <Coup shown={shown} dealing={dealing} />
      <BetFields rules={rules} bets={bets} locked={locked} onBet={onBet} />
      <BetActions
        total={total}
        locked={locked}
        canDeal={canDeal(rules, bets)}
        hint={dealHint(rules, bets, t)}
        showHint={betting && !dealing}
        onClear={actions.clear}
        onRebet={actions.rebet}
        onDeal={() => actions.deal()}
      />
      {view?.shoe?.commitment && (
        <p className="commitment muted">
          <Trans
            t={t}
            i18nKey="commitment"
            values={{ hash: view.shoe.commitment }}
            components={{ code: <code /> }}
          />
        </p>
      )}
    </section>
  );
}
