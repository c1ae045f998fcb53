/**
 * The hand-written check of the bet body (the hot route) against class-validator's rules for PlaceBetDto: on
 * thousands of generated bodies, valid and not, the check never accepts what class-validator refuses, accepts
 * every valid one, and the pipe's answer with the check is the answer without it.
 */
import 'reflect-metadata';
import fc from 'fast-check';
import { ALL_SPOTS } from '@coup/engine';
import { PLAYER_ID_PATTERN } from '@coup/table';
import { CoupValidationPipe } from '../common/validation';
import { FAST_BODY_CHECKS, isPlaceBetBody, MAX_AMOUNT, PlaceBetDto } from './dto';

const plain = new CoupValidationPipe();
const fast = new CoupValidationPipe(FAST_BODY_CHECKS);
const meta = { type: 'body' as const, metatype: PlaceBetDto, data: '' };

async function outcome(pipe: CoupValidationPipe, body: unknown) {
  try {
    const value = await pipe.transform(structuredClone(body), meta);
    return { ok: true, value, isDto: value instanceof PlaceBetDto };
  } catch (error) {
    const e = error as { status?: number; code?: string; message?: string };
    return { ok: false, status: e.status, code: e.code, message: e.message };
  }
}

const anyValue = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }),
);
const playerId = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/),
  fc.stringMatching(PLAYER_ID_PATTERN),
  fc.constantFrom('', 'a b', 'x'.repeat(65), 'é', 'p1\n', '.a', '-a', 'a@b.c'),
  anyValue,
);
const spot = fc.oneof(fc.constantFrom(...ALL_SPOTS, 'Player', 'dragon', 'DRAGON7', 'both', ''), anyValue);
const amount = fc.oneof(
  fc.integer({ min: 1, max: 100_000_000 }),
  fc.constantFrom(
    0,
    -1,
    1,
    MAX_AMOUNT,
    MAX_AMOUNT + 1,
    1.5,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    '100',
    2 ** 53,
  ),
  anyValue,
);
const extra = fc.constantFrom('extra', 'roundNo', 'constructor', 'toString', 'PlayerId');
const validBody = fc.record({
  playerId: fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/),
  spot: fc.constantFrom(...ALL_SPOTS),
  amount: fc.oneof(fc.integer({ min: 1, max: 100_000_000 }), fc.constant(MAX_AMOUNT)),
});
const body = fc.oneof(
  { arbitrary: validBody, weight: 2 },
  fc.record({ playerId, spot, amount }, { requiredKeys: [] }),
  fc.record(
    { playerId, spot, amount, [Symbol.for('extra')]: fc.constant(1) },
    { requiredKeys: ['playerId'] },
  ),
  fc.tuple(fc.record({ playerId, spot, amount }), extra, anyValue).map(([b, k, v]) => ({ ...b, [k]: v })),
  anyValue,
);

/** What a request body can be: the JSON parser's output. */
const jsonBody = body.map((b) => JSON.parse(JSON.stringify(b ?? null)) as unknown);

describe('isPlaceBetBody', () => {
  it('accepts the JSON bodies class-validator accepts for PlaceBetDto, and changes no answer', async () => {
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(jsonBody, async (b) => {
        const slow = await outcome(plain, b);
        // class-validator lets a few inherited names through (`toString: []`); the check leaves those to it.
        const ownKeysOnly = Object.keys(b ?? {}).every((k) => ['playerId', 'spot', 'amount'].includes(k));
        expect(isPlaceBetBody(b)).toBe(slow.ok && ownKeysOnly);
        expect(await outcome(fast, b)).toEqual(slow);
        if (slow.ok) accepted++;
      }),
      { numRuns: 3000 },
    );
    expect(accepted).toBeGreaterThan(300); // the generator does reach valid bodies
  });

  it('never accepts a value class-validator refuses, JSON or not (null prototypes, symbols, undefined)', async () => {
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        if (isPlaceBetBody(b)) expect((await outcome(plain, b)).ok).toBe(true);
        expect(await outcome(fast, b)).toEqual(await outcome(plain, b));
      }),
      { numRuns: 3000 },
    );
  });

  it('a valid body becomes a PlaceBetDto with its three fields', async () => {
    const value = await fast.transform({ playerId: 'p1', spot: 'tie', amount: 2500 }, meta);
    expect(value).toBeInstanceOf(PlaceBetDto);
    expect(value).toEqual(Object.assign(new PlaceBetDto(), { playerId: 'p1', spot: 'tie', amount: 2500 }));
  });

  it('an invalid body gets the usual message from class-validator', async () => {
    expect(await outcome(fast, { playerId: 'p1', spot: 'tie', amount: 0, extra: 1 })).toEqual({
      ok: false,
      status: 400,
      code: 'VALIDATION_FAILED',
      message: "unknown field 'extra'; amount must not be less than 1",
    });
  });
});
