import { useEffect, useState } from 'react';
import type { RoadEntry } from '../feed';
import { getJson } from '../replay/http';
import { type RoadsData, type ServiceRoads, chooseRoads, fromLive, fromService } from './data';
import { ROAD_ROWS, type DerivedCell } from './roads';

const LETTER = { player: 'P', banker: 'B', tie: 'T' } as const;
const WORD = { player: 'Player', banker: 'Banker', tie: 'Tie' } as const;

function gridStyle(cells: readonly { readonly col: number }[], minCols: number) {
  const n = cells.reduce((m, c) => Math.max(m, c.col + 1), 0);
  return {
    gridTemplateColumns: `repeat(${Math.max(minCols, n)}, var(--road-cell))`,
    gridTemplateRows: `repeat(${ROAD_ROWS}, var(--road-cell))`,
  };
}

/** A derived road: big eye boy (hollow rings), small road (dots), cockroach pig (slashes), red or blue. */
function Derived(props: {
  readonly name: string;
  readonly shape: 'ring' | 'dot' | 'slash';
  readonly cells: readonly DerivedCell[];
}) {
  const reds = props.cells.filter((c) => c.color === 'red').length;
  return (
    <figure className="road-figure">
      <figcaption>
        {props.name}{' '}
        <span className="muted">
          {reds} red, {props.cells.length - reds} blue
        </span>
      </figcaption>
      <div className="road road-small" aria-label={props.name} style={gridStyle(props.cells, 16)}>
        {props.cells.map((c, i) => (
          <span
            key={i}
            className={`derived derived-${props.shape} derived-${c.color}`}
            style={{ gridColumn: c.col + 1, gridRow: c.row + 1 }}
            title={`${props.name}: ${c.color}`}
            aria-label={c.color}
            data-cell={`${c.color[0]}${c.col},${c.row}`}
          />
        ))}
      </div>
    </figure>
  );
}

/** Bead plate, big road and the three derived roads, drawn as players know them. */
export function RoadsView({ data }: { readonly data: RoadsData }) {
  return (
    <section className="panel roads" aria-label="roads">
      <h3>
        Roads{' '}
        <span className="muted">
          {data.shoeNo !== null && `shoe ${data.shoeNo}, `}
          {data.coups} coups ({data.source === 'service' ? 'read model' : 'seen live'})
        </span>
      </h3>
      <figure className="road-figure">
        <figcaption>Bead plate</figcaption>
        <div className="road" aria-label="bead plate" style={gridStyle(data.beadPlate, 12)}>
          {data.beadPlate.map((b) => (
            <span
              key={b.roundNo}
              className={`bead bead-${b.outcome}${b.natural ? ' natural' : ''}`}
              style={{ gridColumn: b.col + 1, gridRow: b.row + 1 }}
              title={`round ${b.roundNo}: ${WORD[b.outcome]}${b.natural ? ' (natural)' : ''}`}
            >
              {LETTER[b.outcome]}
            </span>
          ))}
        </div>
      </figure>
      <figure className="road-figure">
        <figcaption>
          Big road{' '}
          {data.leadingTies > 0 && (
            <span className="muted">({data.leadingTies} tie(s) before the first win)</span>
          )}
        </figcaption>
        <div className="road" aria-label="big road" style={gridStyle(data.bigRoad, 12)}>
          {data.bigRoad.map((c, i) => (
            <span
              key={i}
              className={`ring ring-${c.outcome}`}
              style={{ gridColumn: c.col + 1, gridRow: c.row + 1 }}
              title={`${WORD[c.outcome]}${c.ties ? `, then ${c.ties} tie(s)` : ''}`}
              aria-label={`${WORD[c.outcome]}${c.ties ? ` and ${c.ties} tie(s)` : ''}`}
            >
              {c.ties > 0 ? c.ties : LETTER[c.outcome]}
            </span>
          ))}
        </div>
      </figure>
      <Derived name="Big eye boy" shape="ring" cells={data.bigEyeBoy} />
      <Derived name="Small road" shape="dot" cells={data.smallRoad} />
      <Derived name="Cockroach pig" shape="slash" cells={data.cockroachPig} />
    </section>
  );
}

/** How long after a coup the read model is asked again (it is eventually consistent). */
const RETRIES_MS = [0, 400, 1200, 3000];

/**
 * The current shoe's roads: the service's read model (asked again after each coup the console sees resolve, a few
 * times while it catches up), or what the console saw live until then.
 */
export function Roads(props: {
  readonly token: string;
  readonly tableId: string;
  readonly shoeNo: number | null;
  readonly live: readonly RoadEntry[];
}) {
  const { token, tableId, shoeNo, live } = props;
  const [service, setService] = useState<{ shoe: number; data: RoadsData } | null>(null);
  const seen = live.length;
  useEffect(() => {
    if (shoeNo === null) return undefined;
    let stop = false;
    const timers: number[] = [];
    const load = async () => {
      try {
        const r = await getJson<ServiceRoads>(
          token,
          `/tables/${encodeURIComponent(tableId)}/roads?shoe=${shoeNo}`,
        );
        if (!stop) setService({ shoe: shoeNo, data: fromService(r) });
      } catch {
        // no coup of this shoe in the read model yet (UNKNOWN_SHOE), or unreachable: the live roads stand
      }
    };
    for (const ms of RETRIES_MS) timers.push(window.setTimeout(() => void load(), ms));
    return () => {
      stop = true;
      timers.forEach((t) => window.clearTimeout(t));
    };
  }, [token, tableId, shoeNo, seen]);
  const current = service !== null && service.shoe === shoeNo ? service.data : null;
  return <RoadsView data={chooseRoads(current, fromLive(shoeNo, live))} />;
}
