import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Seconds left until `deadline` (an ISO instant) at `now` (epoch ms), never negative. */
export function secondsLeft(deadline: string, now: number): number {
  return Math.max(0, Math.ceil((Date.parse(deadline) - now) / 1000));
}

/** The betting countdown at `now`. The deadline is the table's (from the view), so a reconnecting console agrees. */
export function Countdown({ deadline, now }: { readonly deadline: string; readonly now: number }) {
  const { t } = useTranslation('dealer');
  const left = secondsLeft(deadline, now);
  const text =
    left > 0
      ? t('countdown.left', { time: `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}` })
      : t('countdown.up');
  return (
    <span className={`countdown${left <= 5 ? ' countdown-low' : ''}`} role="timer" aria-live="off">
      {text}
    </span>
  );
}

const systemClock = () => Date.now();

/** The current time in epoch ms, updated every `everyMs`. */
export function useNow(everyMs: number, clock: () => number = systemClock): number {
  const [now, setNow] = useState(clock);
  useEffect(() => {
    const h = window.setInterval(() => setNow(clock()), everyMs);
    return () => window.clearInterval(h);
  }, [everyMs, clock]);
  return now;
}

/** A ticking {@link Countdown}. */
export function LiveCountdown({
  deadline,
  clock,
}: {
  readonly deadline: string;
  readonly clock?: () => number;
}) {
  const now = useNow(250, clock);
  return <Countdown deadline={deadline} now={now} />;
}
