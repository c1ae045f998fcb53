/** Exact rationals (BigInt numerator and denominator) rounded once to the nearest double. */
import { EngineError } from './errors';

function bitLength(x: bigint): number {
  return x === 0n ? 0 : x.toString(2).length;
}

/** The rational `numerator / denominator` correctly rounded to the nearest double. */
export function ratioToNumber(numerator: bigint, denominator: bigint): number {
  if (denominator <= 0n) {
    throw new EngineError('INVALID_ARGUMENT', 'The denominator must be positive', {
      denominator: String(denominator),
    });
  }
  if (numerator < 0n) return -ratioToNumber(-numerator, denominator);
  if (numerator === 0n) return 0;
  // A quotient of at least 65 significant bits plus a sticky bit for the remainder rounds once, correctly.
  const shift = Math.max(0, 66 + bitLength(denominator) - bitLength(numerator));
  const scaled = numerator << BigInt(shift);
  const q = scaled / denominator;
  const sticky = scaled % denominator === 0n ? 0n : 1n;
  return Number((q << 1n) | sticky) / 2 ** (shift + 1);
}
