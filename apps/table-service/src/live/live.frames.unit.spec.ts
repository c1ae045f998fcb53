/**
 * A player not named by `involvedPlayers` gets the one frame every uninvolved player gets: that holds only if
 * every event whose redaction keeps a player's own entries names that player (a settled coup's correction and
 * void included: they carry reversed settlements and returned stakes).
 */
import type { RecordedEvent } from '@coup/event-store';
import { redactEvent, type TableEvent } from '@coup/table';
import { ANY_PLAYER, EventFrames, involvedPlayers } from './live.frames';

const settlement = (playerId: string) => ({
  playerId,
  spot: 'player',
  amount: 100,
  result: 'win',
  paid: 200,
  commission: 0,
});
const base = {
  roundNo: 1,
  shoeNo: 1,
  reason: 'a misdeal',
  at: '2030-01-01T08:00:00.000Z',
  by: 's1',
  role: 'supervisor',
};

const EVENTS = [
  {
    type: 'SettledCoupVoided',
    data: { ...base, reversed: [settlement('p1')], returned: [{ playerId: 'p2', amount: 100 }] },
  },
  {
    type: 'SettledCoupCorrected',
    data: {
      ...base,
      index: 3,
      oldCard: 'Ah',
      newCard: '2h',
      reversed: [settlement('p1')],
      settlements: [settlement('p2')],
    },
  },
  { type: 'RoundVoided', data: { ...base, returned: [{ playerId: 'p1', amount: 100 }] } },
] as unknown as TableEvent[];

const recorded = (event: TableEvent): RecordedEvent =>
  ({
    streamRevision: 5n,
    globalPosition: 9n,
    recordedAt: '2030-01-01T08:00:00.000Z',
    ...event,
  }) as unknown as RecordedEvent;

it.each(EVENTS.map((e) => [e.type, e] as const))(
  '%s names every player whose own entries it carries',
  (_, event) => {
    const involved = involvedPlayers(event);
    for (const player of ['p1', 'p2', 'p3']) {
      const own = redactEvent(event, { id: player, role: 'player' });
      const anyone = redactEvent(event, ANY_PLAYER);
      expect({ player, named: involved.includes(player) }).toEqual({
        player,
        named: JSON.stringify(own) !== JSON.stringify(anyone),
      });
      const frame = JSON.parse(String(new EventFrames('T', recorded(event), event).player(player))) as {
        event: unknown;
      };
      expect(frame.event).toEqual(own);
    }
  },
);
