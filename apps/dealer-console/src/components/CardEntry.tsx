import { type Card, burnCount } from '@coup/engine';
import { type RefObject, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Translate } from '../bets';
import { parseCardInput } from '../format';
import { isTyping, useShortcut } from '../shortcuts';
import { cardWords } from './words';

/** Rank keys: a shoe reader's first character. `1` starts `10`. */
const RANK_KEY = /^[AaTtJjQqKk1-9]$/;
/** Every character a card's spelling may hold (ranks, `10`, suits). */
const CARD_CHAR = /^[AaTtJjQqKk0-9CcDdHhSs]$/;

/**
 * Whether a key pressed in the field is the field's own shortcut, which is not typed: pressed out of habit while the
 * field already has the focus (it takes it as soon as dealing starts), it would start the card with its letter.
 */
export function isOwnShortcut(
  e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'altKey' | 'metaKey'>,
  shortcut?: string,
) {
  if (!shortcut || e.ctrlKey || e.altKey || e.metaKey) return false;
  return e.key.toLowerCase() === shortcut.toLowerCase() && !CARD_CHAR.test(e.key);
}

export interface CardEntryProps {
  /** The field's label, e.g. "Enter card". */
  readonly label: string;
  /** Called with each valid card, one after another (a fast shoe reader's cards queue in order). */
  readonly onSubmit: (card: Card) => unknown;
  /** The key that focuses the field (shown on screen). */
  readonly shortcut?: string;
  /** A rank key typed outside any field starts a card here (a shoe reader that types like a keyboard). */
  readonly captureRanks?: boolean;
  /** Show how many cards the typed card burns (the turned card of a new shoe). */
  readonly showBurn?: boolean;
  readonly disabled?: boolean;
  readonly autoFocus?: boolean;
}

/** While enabled, a rank key typed outside any text field (no modifier) is handed to `onRank`, not typed. */
function useRankCapture(enabled: boolean, onRank: (key: string) => void) {
  const latest = useRef(onRank);
  latest.current = onRank;
  useEffect(() => {
    if (!enabled) return undefined;
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.altKey || e.metaKey || isTyping(e.target) || !RANK_KEY.test(e.key)) return;
      e.preventDefault();
      latest.current(e.key);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enabled]);
}

/** Why the typed text is not a card, in words. */
function refusalOf(text: string, t: Translate): string {
  const raw = text.replace(/\s+/g, '');
  return raw === '' ? t('cardEntry.empty') : t('cardEntry.invalid', { text: raw });
}

/**
 * The typed text and its refusal. `submit` refuses an invalid card (selected for retyping) or queues a valid one
 * (sent after the ones before it) and clears the field; `cancel` clears and leaves it; `startWith` begins a card
 * with a rank key typed elsewhere.
 */
function useCardText(onSubmit: (card: Card) => unknown, input: RefObject<HTMLInputElement | null>) {
  const { t } = useTranslation('dealer');
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const type = (value: string) => {
    setText(value);
    setError(null);
  };
  const submit = () => {
    const parsed = parseCardInput(text);
    if (!parsed.ok) {
      setError(refusalOf(text, t));
      input.current?.select();
      return;
    }
    type('');
    queue.current = queue.current.then(() => onSubmit(parsed.card)).catch(() => undefined);
  };
  const cancel = () => {
    type('');
    input.current?.blur();
  };
  const startWith = (key: string) => {
    type(key);
    input.current?.focus();
  };
  return { text, error, type, submit, cancel, startWith };
}

/** Under the field: the refusal, or the typed card in words (and its burn), or how to type one. */
function CardEntryHelp(props: {
  readonly id: string;
  readonly text: string;
  readonly error: string | null;
  readonly showBurn: boolean;
}) {
  const { t } = useTranslation('dealer');
  const { error } = props;
  const preview = parseCardInput(props.text);
  return (
    <span id={props.id} className="card-entry-help">
      {error !== null ? (
        <span role="alert" className="error-text">
          {error}
        </span>
      ) : preview.ok ? (
        props.showBurn ? (
          t('cardEntry.previewBurn', { card: cardWords(preview.card, t), burn: burnCount(preview.card) })
        ) : (
          t('cardEntry.preview', { card: cardWords(preview.card, t) })
        )
      ) : (
        t('cardEntry.how')
      )}
    </span>
  );
}

/**
 * A text field for one card at a time: `Ah`, `td`, `10c`, then Enter. An invalid card is refused on screen and
 * never sent; a valid one is sent and the field clears for the next.
 */
export function CardEntry(props: CardEntryProps) {
  const { label, onSubmit, shortcut, captureRanks = false, showBurn = false, disabled = false } = props;
  const { t } = useTranslation('dealer');
  const input = useRef<HTMLInputElement>(null);
  const { text, error, type, submit, cancel, startWith } = useCardText(onSubmit, input);
  useShortcut(shortcut ?? '', () => input.current?.focus(), shortcut !== undefined && !disabled);
  useRankCapture(captureRanks && !disabled, startWith);

  const id = `card-entry-${useId().replace(/[^\w-]/g, '')}`;
  return (
    <div className="card-entry">
      <label htmlFor={id}>
        {label} {shortcut && <kbd>{shortcut.toUpperCase()}</kbd>}
      </label>
      <input
        id={id}
        ref={input}
        value={text}
        disabled={disabled}
        autoFocus={props.autoFocus}
        autoComplete="off"
        spellCheck={false}
        maxLength={4}
        placeholder={t('cardEntry.placeholder')}
        aria-invalid={error !== null}
        aria-describedby={`${id}-help`}
        onChange={(e) => type(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            submit();
          } else if (e.key === 'Escape') cancel();
          else if (isOwnShortcut(e, shortcut)) e.preventDefault();
        }}
      />
      <CardEntryHelp id={`${id}-help`} text={text} error={error} showBurn={showBurn} />
    </div>
  );
}
