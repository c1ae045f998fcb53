import type { Outcome } from '@coup/engine';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Translate } from '../bets';
import type { RoadEntry } from '../feed';
import { getJson } from '../replay/http';
import { type RoadsData, type ServiceRoads, chooseRoads, fromService } from './data';
import { ROAD_ROWS, type DerivedCell } from './roads';

/** A bead's or big road mark's letter (P B T, 闲 庄 和) and the side's name. */
const letter = (o: Outcome, t: Translate) => t(`game:letters.${o}`);
const word = (o: Outcome, t: Translate) => t(`game:spots.${o}`);

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
  const { t } = useTranslation('dealer');
  const reds = props.cells.filter((c) => c.color === 'red').length;
  return (
    <figure className="road-figure">
      <figcaption>
        {props.name}{' '}
        <span className="muted">{t('roads.counts', { red: reds, blue: props.cells.length - reds })}</span>
      </figcaption>
      <div
        className="road road-small"
        role="group"
        aria-label={props.name}
        style={gridStyle(props.cells, 16)}
      >
        {props.cells.map((c, i) => (
          <span
            key={i}
            className={`derived derived-${props.shape} derived-${c.color}`}
            style={{ gridColumn: c.col + 1, gridRow: c.row + 1 }}
            role="img"
            title={t('roads.cell', { road: props.name, colour: t(`roads.colours.${c.color}`) })}
            aria-label={t(`roads.colours.${c.color}`)}
            data-cell={`${c.color[0]}${c.col},${c.row}`}
          />
        ))}
      </div>
    </figure>
  );
}

/** Bead plate, big road and the three derived roads, drawn as players know them. */
export function RoadsView({ data }: { readonly data: RoadsData }) {
  const { t } = useTranslation('dealer');
  return (
    <section className="panel roads" aria-label={t('roads.region')}>
      <h3>
        {t('roads.title')}{' '}
        <span className="muted">
          {data.shoeNo !== null && t('roads.shoe', { shoeNo: data.shoeNo })}
          {t('roads.coups', { coups: data.coups, source: t(`roads.sources.${data.source}`) })}
        </span>
      </h3>
      <figure className="road-figure">
        <figcaption>{t('roads.beadPlate')}</figcaption>
        <div
          className="road"
          role="group"
          aria-label={t('roads.beadPlateLabel')}
          style={gridStyle(data.beadPlate, 12)}
        >
          {data.beadPlate.map((b) => {
            const words = t(b.natural ? 'roads.beadNatural' : 'roads.bead', {
              roundNo: b.roundNo,
              outcome: word(b.outcome, t),
            });
            return (
              <span
                key={b.roundNo}
                className={`bead bead-${b.outcome}${b.natural ? ' natural' : ''}`}
                style={{ gridColumn: b.col + 1, gridRow: b.row + 1 }}
                title={words}
              >
                {letter(b.outcome, t)}
              </span>
            );
          })}
        </div>
      </figure>
      <BigRoad data={data} />
      <Derived name={t('roads.bigEyeBoy')} shape="ring" cells={data.bigEyeBoy} />
      <Derived name={t('roads.smallRoad')} shape="dot" cells={data.smallRoad} />
      <Derived name={t('roads.cockroachPig')} shape="slash" cells={data.cockroachPig} />
    </section>
  );
}

/** The big road: a column per run of wins, ties marked on the cell of the win before them. */
function BigRoad({ data }: { readonly data: RoadsData }) {
  const { t } = useTranslation('dealer');
  return (
    <figure className="road-figure">
      <figcaption>
        {t('roads.bigRoad')}{' '}
        {data.leadingTies > 0 && (
          <span className="muted">{t('roads.leadingTies', { count: data.leadingTies })}</span>
        )}
      </figcaption>
      <div
        className="road"
        role="group"
        aria-label={t('roads.bigRoadLabel')}
        style={gridStyle(data.bigRoad, 12)}
      >
        {data.bigRoad.map((c, i) => {
          const outcome = word(c.outcome, t);
          return (
            <span
              key={i}
              className={`ring ring-${c.outcome}${c.ties > 0 ? ' ring-ties' : ''}`}
              style={{ gridColumn: c.col + 1, gridRow: c.row + 1 }}
              role="img"
              title={c.ties ? t('roads.ringTies', { outcome, count: c.ties }) : outcome}
              aria-label={c.ties ? t('roads.ringTiesLabel', { outcome, count: c.ties }) : outcome}
            >
              <span aria-hidden="true">{letter(c.outcome, t)}</span>
            </span>
          );
        })}
      </div>
    </figure>
  );
}

/** When the read model is asked after a coup resolves (it is eventually consistent: give it a moment first). */
const RETRIES_MS = [300, 1200, 3000];

/**
 * The current shoe's roads: the service's read model (`GET /roads?shoe=`; every-coup tables: the latest road, the
 * day's), asked at once when there is a coup to show, again after each coup and after each correction or void of a
 * settled coup, with what the console saw live laid over it (see {@link chooseRoads}: the read model lags). Nothing
 * is asked before the shoe has a coup (the service would answer 404).
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
  /** The coups seen live, as last corrected. */
  readonly live: readonly RoadEntry[];
  /** Rounds seen voided after they settled. */
  readonly voided?: readonly number[];
  /** Corrections and voids of settled coups seen so far: each asks the read model again. */
  readonly amendments?: number;
}) {
  const { token, tableId, shoeNo, shoeCoups, everyCoup, lastRound, live } = props;
  const { voided = NONE, amendments = 0 } = props;
  const [service, setService] = useState<{ shoe: number | null; data: RoadsData } | null>(null);
  const [asked, setAsked] = useState(false);
  const ask = everyCoup ? lastRound !== null : shoeNo !== null && shoeCoups > 0;
  // coups to show when the roads first appeared (a reload): the read model has them, ask at once
  const [shownFirst] = useState(ask);
  // a correction leaves the coup count as it was: it asks again all the same
  const trigger = `${everyCoup ? lastRound : shoeCoups}/${amendments}`;
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
    // at once on a reload (the read model has it); a coup seen live only a moment later: it is folded after the push
    const delays = !asked && shownFirst ? [0, ...RETRIES_MS] : RETRIES_MS;
    setAsked(true);
    for (const ms of delays) timers.push(window.setTimeout(() => void load(), ms));
    return () => {
      stop = true;
      timers.forEach((t) => window.clearTimeout(t));
    };
  }, [token, tableId, shoeNo, everyCoup, ask, trigger]);
  const current = service !== null && (everyCoup || service.shoe === shoeNo) ? service.data : null;
  return <RoadsView data={chooseRoads(current, shoeNo, { coups: live, voided })} />;
}

const NONE: readonly number[] = [];
