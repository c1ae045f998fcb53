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
              className={`ring ring-${c.outcome}${c.ties > 0 ? ' ring-ties' : ''}`}
              style={{ gridColumn: c.col + 1, gridRow: c.row + 1 }}
              title={`${WORD[c.outcome]}${c.ties ? `, then ${c.ties} tie(s)` : ''}`}
              aria-label={`${WORD[c.outcome]}${c.ties ? ` and ${c.ties} tie(s)` : ''}`}
            >
              {LETTER[c.outcome]}
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

/** When the read model is asked after a coup resolves (it is eventually consistent: give it a moment first). */
const RETRIES_MS = [300, 1200, 3000];

/**
 * The current shoe's roads: the service's read model (`GET /roads?shoe=`; every-coup tables: the latest road, the
 * day's), asked at once when there is a coup to show, again after each coup, or what the console saw live while
 * the read model has fewer coups. Nothing is asked before the shoe has a coup (the service would answer 404).
 */
export function Roads(props: {
  readonly token: string;
  readonly tableId: string;
  readonly shoeNo: number | null;
  /** Coups resolved in the current shoe (shoe tables), per the view. */
  readonly shoeCoups: number;
  readonly everyCoup: boolean;
  /** The last resolved round of the table (every-coup tables ask once there is one). */
  readonly lastRound: number | null;
  readonly live: readonly RoadEntry[];
}) {
  const { token, tableId, shoeNo, shoeCoups, everyCoup, lastRound, live } = props;
  const [service, setService] = useState<{ shoe: number | null; data: RoadsData } | null>(null);
  const [asked, setAsked] = useState(false);
  const ask = everyCoup ? lastRound !== null : shoeNo !== null && shoeCoups > 0;
  const trigger = everyCoup ? lastRound : shoeCoups;
  useEffect(() => {
    if (!ask) return undefined;
    let stop = false;
    const timers: number[] = [];
    const path = `/tables/${encodeURIComponent(tableId)}/roads${everyCoup ? '' : `?shoe=${shoeNo}`}`;
    const load = async () => {
      try {
        const r = await getJson<ServiceRoads>(token, path);
        if (!stop) setService({ shoe: shoeNo, data: fromService(r) });
      } catch {
        // not in the read model yet, or unreachable: the live roads stand
      }
    };
    // the first time at once (a reload: the read model has it), then after each coup a moment later
    const delays = asked ? RETRIES_MS : [0, ...RETRIES_MS];
    setAsked(true);
    for (const ms of delays) timers.push(window.setTimeout(() => void load(), ms));
    return () => {
      stop = true;
      timers.forEach((t) => window.clearTimeout(t));
    };
  }, [token, tableId, shoeNo, everyCoup, ask, trigger]);
  const current = service !== null && (everyCoup || service.shoe === shoeNo) ? service.data : null;
  return <RoadsView data={chooseRoads(current, fromLive(shoeNo, live))} />;
}
