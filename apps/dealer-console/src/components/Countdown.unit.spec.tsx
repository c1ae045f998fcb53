import { act, render, screen } from '@testing-library/react';
import { Countdown, LiveCountdown, secondsLeft } from './Countdown';

const deadline = '2026-01-01T12:00:30.000Z';
const at = (iso: string) => Date.parse(iso);

describe('Countdown', () => {
  it('counts whole seconds left to the table deadline, rounding up', () => {
    expect(secondsLeft(deadline, at('2026-01-01T12:00:00.000Z'))).toBe(30);
    expect(secondsLeft(deadline, at('2026-01-01T12:00:29.001Z'))).toBe(1);
    expect(secondsLeft(deadline, at('2026-01-01T12:00:30.000Z'))).toBe(0);
    expect(secondsLeft(deadline, at('2026-01-01T12:05:00.000Z'))).toBe(0);
  });

  it('shows minutes and seconds, and warns in the last five seconds', () => {
    const { rerender } = render(<Countdown deadline={deadline} now={at('2026-01-01T11:59:15.000Z')} />);
    expect(screen.getByRole('timer').textContent).toBe('Betting closes in 1:15');
    expect(screen.getByRole('timer').className).not.toContain('countdown-low');
    rerender(<Countdown deadline={deadline} now={at('2026-01-01T12:00:26.000Z')} />);
    expect(screen.getByRole('timer').textContent).toBe('Betting closes in 0:04');
    expect(screen.getByRole('timer').className).toContain('countdown-low');
    rerender(<Countdown deadline={deadline} now={at('2026-01-01T12:00:31.000Z')} />);
    expect(screen.getByRole('timer').textContent).toBe('Betting time is up: closing');
  });

  it('ticks from the deadline it is given, not from when it started (a reconnecting console agrees)', () => {
    jest.useFakeTimers();
    try {
      let now = at('2026-01-01T12:00:20.000Z'); // joined late: 10 s left, not bettingSeconds
      const clock = () => now;
      render(<LiveCountdown deadline={deadline} clock={clock} />);
      expect(screen.getByRole('timer').textContent).toBe('Betting closes in 0:10');
      now += 3000;
      act(() => jest.advanceTimersByTime(250));
      expect(screen.getByRole('timer').textContent).toBe('Betting closes in 0:07');
      now += 8000;
      act(() => jest.advanceTimersByTime(250));
      expect(screen.getByRole('timer').textContent).toBe('Betting time is up: closing');
    } finally {
      jest.useRealTimers();
    }
  });
});
