import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useShortcut } from '../shortcuts';

/**
 * Playing: while on, one step every `playMs` from the current step, turning itself off at the last. The timer reads
 * the latest step and callback (they change on every step) without restarting.
 */
function usePlayback(count: number, step: number, onStep: (step: number) => void, playMs: number) {
  const [playing, setPlaying] = useState(false);
  const latest = useRef({ step, onStep, count });
  latest.current = { step, onStep, count };

  useEffect(() => {
    if (!playing) return undefined;
    const timer = window.setInterval(() => {
      const { step: s, onStep: go, count: n } = latest.current;
      if (s >= n) {
        setPlaying(false);
        return;
      }
      latest.current = { ...latest.current, step: s + 1 };
      go(s + 1);
      if (s + 1 >= n) setPlaying(false);
    }, playMs);
    return () => window.clearInterval(timer);
  }, [playing, playMs]);
  return [playing, setPlaying] as const;
}

/**
 * Steps through a hand: step 0 is the table before the hand, step n the table after its n-th event. Back, step,
 * play/pause (one step every `playMs`, stopping at the end), first/last and a slider; keyboard: Left/Right arrows,
 * P, Home, End (outside text fields).
 */
export function Stepper(props: {
  readonly count: number;
  readonly step: number;
  readonly onStep: (step: number) => void;
  readonly playMs?: number;
}) {
  const { t } = useTranslation('replay');
  const { count, step, onStep } = props;
  const [playing, setPlaying] = usePlayback(count, step, onStep, props.playMs ?? 700);

  const go = (s: number) => {
    setPlaying(false);
    onStep(Math.max(0, Math.min(count, s)));
  };
  const togglePlay = () => {
    if (playing) setPlaying(false);
    else {
      if (step >= count) onStep(0);
      setPlaying(true);
    }
  };
  useShortcut('ArrowLeft', () => go(step - 1), step > 0);
  useShortcut('ArrowRight', () => go(step + 1), step < count);
  useShortcut('Home', () => go(0), step > 0);
  useShortcut('End', () => go(count), step < count);
  useShortcut('p', togglePlay, count > 0);

  return (
    <div className="stepper no-print" role="group" aria-label={t('stepper.label')}>
      <button type="button" onClick={() => go(0)} disabled={step === 0}>
        {t('stepper.first')} <kbd>Home</kbd>
      </button>
      <button type="button" onClick={() => go(step - 1)} disabled={step === 0}>
        {t('stepper.back')} <kbd>←</kbd>
      </button>
      <button type="button" onClick={togglePlay} disabled={count === 0} aria-pressed={playing}>
        {playing ? t('stepper.pause') : t('stepper.play')} <kbd>P</kbd>
      </button>
      <button type="button" onClick={() => go(step + 1)} disabled={step >= count}>
        {t('stepper.step')} <kbd>→</kbd>
      </button>
      <button type="button" onClick={() => go(count)} disabled={step >= count}>
        {t('stepper.last')} <kbd>End</kbd>
      </button>
      <input
        type="range"
        aria-label={t('stepper.slider')}
        min={0}
        max={count}
        value={step}
        onChange={(e) => go(Number(e.target.value))}
      />
      <output aria-live="polite">{t('stepper.position', { step, count })}</output>
    </div>
  );
}
