import { type Card, burnCount } from '@coup/engine';
import { useEffect, useRef, useState } from 'react';
import { cardFace, parseCardInput } from '../format';
import { isTyping, useShortcut } from '../shortcuts';

/** Rank keys: a shoe reader's first character. `1` starts `10`. */
const RANK_KEY = /^[AaTtJjQqKk1-9]$/;

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

/**
 * A text field for one card at a time: `Ah`, `td`, `10c`, then Enter. An invalid card is refused on screen and
 * never sent; a valid one is sent and the field clears for the next.
 */
export function CardEntry(props: CardEntryProps) {
  const { label, onSubmit, shortcut, captureRanks = false, showBurn = false, disabled = false } = props;
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const queue = useRef<Promise<unknown>>(Promise.resolve());

  useShortcut(shortcut ?? '', () => input.current?.focus(), shortcut !== undefined && !disabled);

  useEffect(() => {
    if (!captureRanks || disabled) return undefined;
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.altKey || e.metaKey || isTyping(e.target) || !RANK_KEY.test(e.key)) return;
      e.preventDefault();
      setText(e.key);
      setError(null);
      input.current?.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [captureRanks, disabled]);

  const submit = () => {
    const parsed = parseCardInput(text);
    if (!parsed.ok) {
      setError(parsed.message);
      input.current?.select();
      return;
    }
    setError(null);
    setText('');
    queue.current = queue.current.then(() => onSubmit(parsed.card)).catch(() => undefined);
  };

  const preview = parseCardInput(text);
  const id = `card-entry-${label.replace(/\W+/g, '-').toLowerCase()}`;
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
        placeholder="Ah, Td, 9c"
        aria-invalid={error !== null}
        aria-describedby={`${id}-help`}
        onChange={(e) => {
          setText(e.target.value);
          setError(null);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            submit();
          } else if (e.key === 'Escape') {
            setText('');
            setError(null);
            input.current?.blur();
          }
        }}
      />
      <span id={`${id}-help`} className="card-entry-help">
        {error !== null ? (
          <span role="alert" className="error-text">
            {error}
          </span>
        ) : preview.ok ? (
          <>
            {cardFace(preview.card).words}
            {showBurn && `: burn ${burnCount(preview.card)}`} (Enter)
          </>
        ) : (
          'rank then suit, Enter'
        )}
      </span>
    </div>
  );
}
