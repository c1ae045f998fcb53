/**
 * Player ids over HTTP are the decider's (PLAYER_ID_PATTERN, the read side's too): 1 to 64 of letters, digits and
 * `_ . : @ + -`, the first a letter or digit, in bodies (bets, rebets) as in route parameters.
 */
import 'reflect-metadata';
import { PLAYER_ID_PATTERN } from '@coup/table';
import { CoupValidationPipe } from '../common/validation';
import { FAST_BODY_CHECKS, isPlaceBetBody, PlaceBetDto, PlayerRefDto } from './dto';

const pipe = new CoupValidationPipe(FAST_BODY_CHECKS);
const accepts = async (metatype: abstract new () => object, body: object) => {
  try {
    await pipe.transform(body, { type: 'body', metatype: metatype as new () => object, data: '' });
    return true;
  } catch {
    return false;
  }
};

const VALID = ['p1', 'alice@casino.example', 'a.b:c+d_e-f', 'X'.repeat(64)];
const INVALID = ['', '.a', '-a', 'a b', 'é', 'X'.repeat(65), 'a/b'];

describe('player ids in bodies', () => {
  it.each(VALID)(
    '%s is a player id in a bet and a rebet (checked by hand and by class-validator)',
    async (id) => {
      expect(PLAYER_ID_PATTERN.test(id)).toBe(true);
      const bet = { playerId: id, spot: 'banker', amount: 100 };
      expect(isPlaceBetBody(bet)).toBe(true);
      expect(await accepts(PlaceBetDto, bet)).toBe(true);
      expect(
        await new CoupValidationPipe().transform(bet, { type: 'body', metatype: PlaceBetDto, data: '' }),
      ).toEqual(Object.assign(new PlaceBetDto(), bet));
      expect(await accepts(PlayerRefDto, { playerId: id })).toBe(true);
    },
  );

  it.each(INVALID)('%j is refused', async (id) => {
    const bet = { playerId: id, spot: 'banker', amount: 100 };
    expect(isPlaceBetBody(bet)).toBe(false);
    expect(await accepts(PlaceBetDto, bet)).toBe(false);
    expect(await accepts(PlayerRefDto, { playerId: id })).toBe(false);
  });
});
