/** The player page's keyboard: 0 rebet, 1-5 chips, P B T bet fields, C clear, D deal, S sound, ? help, Escape closes help. */
import { useEffect, useRef } from 'react';
import type { Spot } from '@coup/table';
import { isTyping } from '../shortcuts';

export interface PlayerKeys {
  rebet(): void;
  /** Selects the chip at `index` (0-based); false when the table has no such chip. */
  selectChip(index: number): boolean;
  placeBet(spot: Spot): void;
  clear(): void;
  deal(): void;
  toggleSound(): void;
  toggleHelp(): void;
  closeHelp(): void;
}

/** Runs the key's action; true when the key was one of the page's. */
function handleKey(e: KeyboardEvent, keys: PlayerKeys): boolean {
  if (e.ctrlKey || e.altKey || e.metaKey || e.repeat || isTyping(e.target)) return false;
  const k = e.key.toLowerCase();
  const chipIndex = '12345'.indexOf(k);
  if (k === '0') keys.rebet();
  else if (chipIndex >= 0 && keys.selectChip(chipIndex)) return true;
  else if (k === 'p') keys.placeBet('player');
  else if (k === 'b') keys.placeBet('banker');
  else if (k === 't') keys.placeBet('tie');
  else if (k === 'c') keys.clear();
  else if (k === 'd') keys.deal();
  else if (k === 's') keys.toggleSound();
  else if (k === '?' || k === 'h') keys.toggleHelp();
  else if (k === 'escape') keys.closeHelp();
  else return false;
  return true;
}

/** Listens on the window; the handlers of the latest render answer each key. */
export function usePlayerKeys(keys: PlayerKeys): void {
  const current = useRef(keys);
  current.current = keys;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (handleKey(e, current.current)) e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
