import type { RoadEntry } from '../feed';
import { ROAD_ROWS, beadPlate, bigRoad } from '../roads';

const LETTER = { player: 'P', banker: 'B', tie: 'T' } as const;

/** Bead plate and big road of the current shoe, from the coups this console has seen resolve. */
export function Roads({ road }: { readonly road: readonly RoadEntry[] }) {
  const beads = beadPlate(road);
  const big = bigRoad(road.map((r) => r.outcome));
  const cols = (n: number) => ({
    gridTemplateColumns: `repeat(${Math.max(12, n)}, 1.25rem)`,
    gridTemplateRows: `repeat(${ROAD_ROWS}, 1.25rem)`,
  });
  return (
    <section className="panel roads" aria-label="roads">
      <h3>
        Roads <span className="muted">({road.length} coups seen this shoe)</span>
      </h3>
      <div className="road" aria-label="bead plate" style={cols((beads.at(-1)?.col ?? 0) + 1)}>
        {beads.map((b) => (
          <span
            key={b.roundNo}
            className={`bead bead-${b.outcome}${b.natural ? ' natural' : ''}`}
            style={{ gridColumn: b.col + 1, gridRow: b.row + 1 }}
            title={`round ${b.roundNo}: ${b.outcome}${b.natural ? ' (natural)' : ''}`}
          >
            {LETTER[b.outcome]}
          </span>
        ))}
      </div>
      <div
        className="road"
        aria-label="big road"
        style={cols(big.reduce((m, c) => Math.max(m, c.col + 1), 0))}
      >
        {big.map((c, i) => (
          <span
            key={i}
            className={`ring ring-${c.outcome}`}
            style={{ gridColumn: c.col + 1, gridRow: c.row + 1 }}
            title={`${c.outcome}${c.ties ? `, then ${c.ties} tie(s)` : ''}`}
          >
            {c.ties > 0 ? c.ties : ''}
          </span>
        ))}
      </div>
    </section>
  );
}
