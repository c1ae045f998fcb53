import type { TableView } from '@coup/table';
import { useEffect, useMemo, useState } from 'react';
import { ApiError } from '../api';
import { BetsPanel, Hands, PlayersPanel, Result, ShoePanel } from '../components/TableParts';
import { outcomeLabel } from '../format';
import { type ReadApi, readApi } from './api';
import { type FoldedReplay, type Recheck, foldReplay, recheckCoup } from './fold';
import { handHash } from './route';
import { Stepper } from './Stepper';
import type { HandReplay, HandVerification, ReplayEvent } from '@coup/projections/wire';

/** How soon a hand still in play, or with a pending check, is read again. */
export const HAND_REREAD_MS = 3_000;

const STATUS_TEXT = { pass: 'PASSED', fail: 'FAILED', pending: 'PENDING', skipped: 'SKIPPED' } as const;

function CoupCheck({ check }: { readonly check: Recheck }) {
  if (check.kind === 'none') return <p className="muted">{check.reason}</p>;
  if (check.kind === 'error')
    return (
      <p className="check-fail">
        <strong>FAILED</strong>: the engine cannot resolve the dealt cards: {check.message}
      </p>
    );
  return (
    <>
      <p className={check.same ? 'check-pass' : 'check-fail'}>
        <strong>{check.same ? 'MATCHES' : 'DIFFERS'}</strong>{' '}
        {check.same
          ? `the engine resolves the dealt cards to the recorded coup: ${outcomeLabel(check.engine.outcome)} ${check.engine.playerTotal} to ${check.engine.bankerTotal}`
          : 'the engine resolves the dealt cards differently from the record'}
      </p>
      <table className="grid">
        <thead>
          <tr>
            <th>field</th>
            <th>recorded</th>
            <th>re-resolved</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {check.fields.map((f) => (
            <tr key={f.name} className={f.same ? 'check-pass' : 'check-fail'}>
              <td>{f.name}</td>
              <td>{f.recorded}</td>
              <td>{f.engine}</td>
              <td>{f.same ? 'same' : 'DIFFERENT'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function VerifyChecks({ verify }: { readonly verify: HandVerification | ApiError | null }) {
  if (verify === null) return <p className="muted">Verifying...</p>;
  if (verify instanceof ApiError)
    return (
      <p className="check-fail" role="alert">
        Verify refused: <code>{verify.code}</code> {verify.message}
      </p>
    );
  return (
    <>
      <p className={verify.ok ? 'check-pass' : 'check-fail'} aria-label="verification">
        <strong>{verify.ok ? 'VERIFIED' : 'NOT VERIFIED'}</strong>:{' '}
        {(['pass', 'fail', 'pending', 'skipped'] as const)
          .map((st) => [st, verify.checks.filter((c) => c.status === st).length] as const)
          .filter(([st, n]) => n > 0 || st === 'fail')
          .map(([st, n]) => `${n} ${STATUS_TEXT[st].toLowerCase()}`)
          .join(', ')}
      </p>
      <table className="grid checks">
        <thead>
          <tr>
            <th>check</th>
            <th>status</th>
            <th>detail</th>
          </tr>
        </thead>
        <tbody>
          {verify.checks.map((c) => (
            <tr key={c.name} className={`check-${c.status}`} data-check={c.name}>
              <td>{c.name}</td>
              <td>
                <strong>{STATUS_TEXT[c.status]}</strong>
              </td>
              <td>
                {c.detail}
                {c.event && ` (event ${c.event.type} at revision ${c.event.revision})`}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function EventList(props: {
  readonly events: readonly ReplayEvent[];
  readonly step: number;
  readonly onStep: (s: number) => void;
}) {
  return (
    <ol className="replay-events" aria-label="events">
      {props.events.map((e, i) => (
        <li key={e.revision} aria-current={i + 1 === props.step ? 'step' : undefined}>
          <button type="button" className="link" onClick={() => props.onStep(i + 1)}>
            {i + 1}. {e.type}
          </button>{' '}
          <span className="muted">
            #{e.revision} {e.recordedAt.slice(11, 19)}
            {e.actor && ` ${e.actor}`}
          </span>
        </li>
      ))}
    </ol>
  );
}

function TableAt({ view }: { readonly view: TableView }) {
  return (
    <div className="replay-table">
      <Hands round={view.round} />
      <Result round={view.round} />
      <BetsPanel round={view.round} />
      <div className="replay-side">
        <ShoePanel shoe={view.shoe} />
        <PlayersPanel view={view} />
      </div>
    </div>
  );
}

/** What the replay shows at one step, from the browser's fold. */
function StepDetail({ folded, step }: { readonly folded: FoldedReplay; readonly step: number }) {
  const s = step === 0 ? null : folded.steps[step - 1];
  const view = s ? s.view : folded.before;
  return (
    <section className="panel replay-step" aria-label="step">
      <h3 data-testid="step-heading">
        {s ? (
          <>
            Step {step}: {s.event.type}{' '}
            <span className="muted">
              revision {s.event.revision}, {s.event.recordedAt}
              {s.event.actor && `, by ${s.event.actor}`}
            </span>
          </>
        ) : (
          'Before the hand'
        )}
      </h3>
      {s && (
        <p className={s.matchesService ? 'check-pass' : 'check-fail'} data-testid="fold-match">
          {s.matchesService
            ? 'Folded in this browser by the table decider: same table as the service.'
            : 'Folded in this browser by the table decider: DIFFERS from the table the service folded.'}
        </p>
      )}
      {s && <pre className="event-data no-print">{JSON.stringify(s.event.data, null, 2)}</pre>}
      <p>
        Phase <strong>{view.phase}</strong>, round {view.roundNo}
      </p>
      <TableAt view={view} />
    </section>
  );
}

/**
 * The hand's replay and verification from the service. The hand is read again while it is still being played
 * (betting or dealing, as far as the read side knows) or a check is pending (the shoe's seed not yet revealed): the
 * read models follow the log a moment behind.
 */
function useHandReplay(api: ReadApi, tableId: string, roundNo: number) {
  const [replay, setReplay] = useState<HandReplay | ApiError | null>(null);
  const [verify, setVerify] = useState<HandVerification | ApiError | null>(null);
  useEffect(() => {
    let stop = false;
    let timer: number | undefined;
    const asError = (e: unknown) => (e instanceof ApiError ? e : new ApiError(0, 'UNEXPECTED', String(e)));
    const load = async () => {
      const [r, v] = await Promise.all([
        api.replay(tableId, roundNo).catch(asError),
        api.verify(tableId, roundNo).catch(asError),
      ]);
      if (stop) return;
      setReplay(r);
      setVerify(v);
      const playing = !(r instanceof ApiError) && (r.status === 'betting' || r.status === 'dealing');
      const pending = !(v instanceof ApiError) && v.checks.some((c) => c.status === 'pending');
      if (playing || pending) timer = window.setTimeout(() => void load(), HAND_REREAD_MS);
    };
    void load();
    return () => {
      stop = true;
      window.clearTimeout(timer);
    };
  }, [api, tableId, roundNo]);
  return { replay, verify };
}

function ReplayHeader(props: {
  readonly tableId: string;
  readonly roundNo: number;
  readonly replay: HandReplay | null;
  readonly count: number;
}) {
  const { tableId, replay } = props;
  return (
    <header className="replay-header">
      <h2>
        Hand {props.roundNo} <span className="muted">table {tableId}</span>
      </h2>
      {replay && (
        <span>
          shoe {replay.shoeNo}, {replay.status}, {props.count} events
        </span>
      )}
      <a className="no-print" href={`#/tables/${tableId}/hands`}>
        All hands
      </a>
      <a className="no-print" href={`#/tables/${tableId}`}>
        Live table
      </a>
      <button type="button" className="no-print" onClick={() => window.print()}>
        Print record
      </button>
    </header>
  );
}

/** Beside the step: the hand's events (each a link to its step), the coup re-resolved, the service's checks. */
function ReplayAside(props: {
  readonly folded: FoldedReplay;
  readonly step: number;
  readonly onStep: (s: number) => void;
  readonly verify: HandVerification | ApiError | null;
}) {
  const { folded } = props;
  const count = folded.steps.length;
  const mismatches = folded.steps.filter((s) => !s.matchesService).length;
  const check = useMemo(() => recheckCoup(folded), [folded]);
  return (
    <div className="replay-aside">
      <section className="panel" aria-label="events of the hand">
        <h3>Events</h3>
        <p className={mismatches === 0 ? 'check-pass' : 'check-fail'}>
          {mismatches === 0
            ? `Browser fold: all ${count} steps match the service`
            : `Browser fold: ${mismatches} of ${count} steps DIFFER from the service`}
        </p>
        <EventList events={folded.steps.map((s) => s.event)} step={props.step} onStep={props.onStep} />
      </section>
      <section className="panel" aria-label="coup re-resolved">
        <h3>Coup re-resolved by the engine</h3>
        <CoupCheck check={check} />
      </section>
      <section className="panel" aria-label="verify checks">
        <h3>Verify checks</h3>
        <VerifyChecks verify={props.verify} />
      </section>
    </div>
  );
}

/**
 * A hand, replayed step by step: the events from the service (`GET .../replay`), the table after each folded in
 * this browser, the coup re-resolved by the engine, and the service's verify checks. The address carries the step
 * (`#/tables/T1/hands/12?step=5`), for a compliance report; printing gives a one-page record.
 */
export function ReplayScreen(props: {
  readonly token: string;
  readonly tableId: string;
  readonly roundNo: number;
  readonly initialStep: number | null;
  readonly api?: ReadApi;
  readonly playMs?: number;
}) {
  const { tableId, roundNo } = props;
  const api = useMemo(() => props.api ?? readApi(props.token), [props.api, props.token]);
  const { replay, verify } = useHandReplay(api, tableId, roundNo);
  const [step, setStep] = useState(props.initialStep ?? 0);
  const loaded = replay === null || replay instanceof ApiError ? null : replay;
  const folded = useMemo(() => (loaded ? foldReplay(loaded) : null), [loaded]);
  const count = folded?.steps.length ?? 0;
  const shown = Math.min(step, count);

  const goTo = (s: number) => {
    setStep(s);
    window.history.replaceState(null, '', handHash(tableId, roundNo, s));
  };

  const link = `${window.location.origin}${window.location.pathname}${handHash(tableId, roundNo, shown)}`;
  return (
    <div className="replay-screen">
      <ReplayHeader tableId={tableId} roundNo={roundNo} replay={loaded} count={count} />
      <p className="replay-link">
        Link to this step: <a href={handHash(tableId, roundNo, shown)}>{link}</a>
      </p>
      {replay instanceof ApiError && (
        <div className="refusal" role="alert">
          <strong>Replay refused</strong> <code>{replay.code}</code> {replay.message}
        </div>
      )}
      {replay === null && <p className="muted">Loading the hand...</p>}
      {folded && (
        <>
          <Stepper count={count} step={shown} onStep={goTo} playMs={props.playMs} />
          <div className="replay-body">
            <div className="replay-main">
              <StepDetail folded={folded} step={shown} />
            </div>
            <ReplayAside folded={folded} step={shown} onStep={goTo} verify={verify} />
          </div>
        </>
      )}
    </div>
  );
}
