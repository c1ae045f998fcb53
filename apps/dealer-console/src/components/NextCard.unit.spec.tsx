import type { NextPosition } from '@coup/engine';
import { render, screen } from '@testing-library/react';
import { NextCard } from './NextCard';

describe('NextCard', () => {
  const cases: [NextPosition, RegExp, string][] = [
    [{ to: 'player', slot: 'player1' }, /Player's first card/, 'next-player'],
    [{ to: 'banker', slot: 'banker1' }, /Banker's first card/, 'next-banker'],
    [{ to: 'player', slot: 'player2' }, /Player's second card/, 'next-player'],
    [{ to: 'banker', slot: 'banker2' }, /Banker's second card/, 'next-banker'],
    [{ to: 'player', slot: 'player3' }, /Player's third card/, 'next-player'],
    [{ to: 'banker', slot: 'banker3' }, /Banker's third card/, 'next-banker'],
    [{ to: 'complete' }, /Done: the coup is complete/, 'next-complete'],
  ];
  it.each(cases)('says where %j goes', (next, text, cls) => {
    render(<NextCard next={next} />);
    const status = screen.getByRole('status');
    expect(status.textContent).toMatch(text);
    expect(status.className).toContain(cls);
  });
});
