import { cardValue } from './cards';
test('values', () => { expect(cardValue('Ah')).toBe(1); expect(cardValue('Kd')).toBe(0); expect(cardValue('9c')).toBe(9); });
