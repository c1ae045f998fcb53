/**
 * The round's cards in the player and banker hands, each numbered in dealing order. When a card may be corrected,
 * each is a button: clicking one picks it for the correction form.
 */
import { type Card, type Outcome, handTotal } from '@coup/engine';
import type { RoundView } from '@coup/table';
import { useTranslation } from 'react-i18next';
import { cardFace } from '../format';

/** A card in words, in the current language (`10 of hearts`, `红桃10`). */
export function useCardWords(): (card: Card) => string {
  const { t } = useTranslation('supervisor');
  return (card) =>
    t('card.words', { rank: t(`card.ranks.${card.charAt(0)}`), suit: t(`card.suits.${card.charAt(1)}`) });
}

function Face({ card, order }: { readonly card: Card; readonly order: number }) {
  const f = cardFace(card);
  return (
    <span className={`playing-card${f.red ? ' red' : ''}`} aria-hidden="true">
      <span className="card-order">{order}</span>
      <span className="card-rank">{f.rank}</span>
      <span className="card-suit">{f.suit}</span>
    </span>
  );
}

type DealtCard = RoundView['cards'][number];

function CardItem(props: {
  readonly dealt: DealtCard;
  readonly clickable: boolean;
  readonly selected: boolean;
  readonly onPick: (index: number) => void;
}) {
  const { t } = useTranslation('supervisor');
  const words = useCardWords();
  const { dealt } = props;
  const label = t('card.label', {
    order: dealt.index + 1,
    slot: t(`slots.${dealt.slot}`),
    card: words(dealt.card),
  });
  if (!props.clickable)
    return (
      <span role="img" aria-label={label} className="dealt-card">
        <Face card={dealt.card} order={dealt.index + 1} />
      </span>
    );
  // the name is the words (screen readers), the face is what sighted people see
  return (
    <button
      type="button"
      className={`dealt-card card-button${props.selected ? ' selected' : ''}`}
      aria-pressed={props.selected}
      onClick={() => props.onPick(dealt.index)}
    >
      <span className="sr-text">{t('card.correct', { card: label })}</span>
      <Face card={dealt.card} order={dealt.index + 1} />
    </button>
  );
}

export function RoundCards(props: {
  readonly round: RoundView;
  readonly clickable: boolean;
  readonly selected: number | null;
  readonly onPick: (index: number) => void;
}) {
  const { t } = useTranslation('supervisor');
  const outcome: Outcome | null = props.round.result?.outcome ?? null;
  return (
    <div className="hands">
      {(['player', 'banker'] as const).map((side) => {
        const mine = props.round.cards.filter((c) => c.to === side);
        return (
          <section
            key={side}
            className={`hand hand-${side}${outcome === side ? ' won' : ''}`}
            aria-label={t(`hands.${side}`)}
          >
            <h3>
              {t(`hands.${side}`)}
              {mine.length > 0 && <span className="total">{handTotal(mine.map((c) => c.card))}</span>}
            </h3>
            <div className="cards">
              {mine.length === 0 ? (
                <span className="muted">{t('hands.none')}</span>
              ) : (
                mine.map((c) => (
                  <CardItem
                    key={c.index}
                    dealt={c}
                    clickable={props.clickable}
                    selected={props.selected === c.index}
                    onPick={props.onPick}
                  />
                ))
              )}
            </div>
          </section>
        );
      })}
    </div>
  );
}
