export function cardValue(card: string): number {
  const r = card[0];
  return r === 'A' ? 1 : r === 'T' || r === 'J' || r === 'Q' || r === 'K' ? 0 : Number(r);
}
