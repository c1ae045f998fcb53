/**
 * The refusals the OpenAPI document lists for each table command are the decider's: every refusal the decider's
 * golden corpus (random command sequences reaching every command type and refusal code) gives a command is among
 * `commandRefusals` of its type, and each listed code is a domain code.
 */
import { COMMAND_SPECS, ERROR_HTTP_STATUS, type TableCommandType } from '@coup/table';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the decider's corpus generator, a test tool of libs/table; only this spec imports it
import { runSequence, sequences } from '../../../../libs/table/test/golden/corpus';
import { commandRefusals } from './command-refusals';

const TYPES = Object.keys(COMMAND_SPECS) as TableCommandType[];
/** The corpus's first 2,500 sequences: all but one of the (command, refusal) pairs of the 10,000, in a quarter of the time. */
const SEQUENCES = 2_500;

it('every refusal the decider gives a command in its golden corpus is listed for that command', () => {
  const seen = new Map<string, Set<string>>();
  sequences(SEQUENCES).forEach((sequence, index) =>
    runSequence(sequence, index, (command, outcome) => {
      const type = (command as { type?: unknown } | null)?.type;
      if (outcome === 'ok' || typeof type !== 'string' || !TYPES.includes(type as TableCommandType)) return;
      seen.set(type, (seen.get(type) ?? new Set()).add(outcome));
    }),
  );
  const missing = [...seen].flatMap(([type, codes]) =>
    [...codes]
      .filter((code) => !commandRefusals(type as TableCommandType).includes(code as never))
      .map((code) => `${type} ${code}`),
  );
  expect(missing).toEqual([]);
  // The corpus reached every command (so the check above saw each one's refusals).
  expect([...seen.keys()].sort()).toEqual([...TYPES].sort());
});

it('lists only domain codes, each once', () => {
  for (const type of TYPES) {
    const codes = commandRefusals(type);
    expect(codes.filter((c) => !(c in ERROR_HTTP_STATUS))).toEqual([]);
    expect(new Set(codes).size).toBe(codes.length);
  }
});
