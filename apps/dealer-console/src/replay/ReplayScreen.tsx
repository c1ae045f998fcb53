import type { TableView } from '@coup/table';
import { useEffect, useMemo, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { ApiError } from '../api';
import { BetsPanel, Hands, PlayersPanel, Result, ShoePanel } from '../components/TableParts';
import { formatTime } from '../i18n';
import { type ReadApi, readApi } from './api';
import { auditTrail, recheckCoup } from './coup-audit';
import { type FoldedReplay, foldReplay } from './fold';
import { AuditTrail, CoupCheck, VerifyChecks } from './ReplayChecks';
import { handHash } from './route';
import { Stepper } from './Stepper';
import type { HandReplay, HandVerification, ReplayEvent } from '@coup/projections/wire';

/** How soon a hand still in play, or with a pending check, is read again. */
export const HAND_REREAD_MS = 3_000;

/** An event type in words (the recorded type when the catalogue has none). */
function useEventType(): (type: string) => string {
  const { t } = useTranslation('replay');
  return (type) => t(`dealer:events.types.${type}`, type);
}

/** An event's time as recorded, in the casino's time zone. */
const timeOf = (iso: string): string => formatTime(iso, { dateStyle: undefined, timeStyle: 'medium' });

function EventList(props: {
  readonly events: readonly ReplayEvent[];
  readonly step: number;
  readonly onStep: (s: number) => void;
}) {
  const { t } = useTranslation('replay');
  const typeOf = useEventType();
  return (
    <ol className="replay-events" aria-label={t('events.list')}>
      {props.events.map((e, i) => (
        <li key={e.revision} aria-current={i + 1 === props.step ? 'step' : undefined}>
          <button type="button" className="link" onClick={() => props.onStep(i + 1)}>
            {t('events.item', { n: i + 1, type: typeOf(e.type) })}
          </button>{' '}
          <span className="muted">
            #{e.revision} <time dateTime={e.recordedAt}>{timeOf(e.recordedAt)}</time>
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

function StepHeading({ folded, step }: { readonly folded: FoldedReplay; readonly step: number }) {
  const { t } = useTranslation('replay');
  const typeOf = useEventType();
  const s = step === 0 ? null : folded.steps[step - 1];
  if (!s) return <h3 data-testid="step-heading">{t('step.before')}</h3>;
  const { event } = s;
  const meta = { revision: event.revision, at: formatTime(event.recordedAt), by: event.actor };
  return (
    <h3 data-testid="step-heading">
      {t('step.heading', { step, type: typeOf(event.type) })}{' '}
      <span className="muted">{t(event.actor ? 'step.metaBy' : 'step.meta', meta)}</span>
    </h3>
  );
}

/** What the replay shows at one step, from the browser's fold. */
function StepDetail({ folded, step }: { readonly folded: FoldedReplay; readonly step: number }) {
  const { t } = useTranslation('replay');
  const s = step === 0 ? null : folded.steps[step - 1];
  const view = s ? s.view : folded.before;
  return (
    <section className="panel replay-step" aria-label={t('step.region')}>
      <StepHeading folded={folded} step={step} />
      {s && (
        <p className={s.matchesService ? 'check-pass' : 'check-fail'} data-testid="fold-match">
          {s.matchesService ? t('step.same') : t('step.differs')}
        </p>
      )}
      {s && (
        // scrolls when long: focusable, so a keyboard can scroll it too
        <pre
          className="event-data no-print"
          role="region"
          aria-label={t('step.data')}
          tabIndex={0}
          translate="no"
        >
          {JSON.stringify(s.event.data, null, 2)}
        </pre>
      )}
      <p>
        <Trans
          t={t}
          i18nKey="step.phase"
          values={{ phase: t(`phases.${view.phase}`, view.phase), round: view.roundNo }}
          components={{ b: <strong /> }}
        />
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
  const { t } = useTranslation('replay');
  const { tableId, replay } = props;
  return (
    <header className="replay-header">
      <h2>
        {t('header.title', { round: props.roundNo })}{' '}
        <span className="muted">{t('header.table', { table: tableId })}</span>
      </h2>
      {replay && (
        <span>
          {t('header.summary', {
            shoe: replay.shoeNo,
            status: t(`status.${replay.status}`, replay.status),
            count: props.count,
          })}
        </span>
      )}
      <a className="no-print" href={`#/tables/${tableId}/hands`}>
        {t('header.allHands')}
      </a>
      <a className="no-print" href={`#/tables/${tableId}`}>
        {t('header.liveTable')}
      </a>
      <button type="button" className="no-print" onClick={() => window.print()}>
        {t('header.print')}
      </button>
    </header>
  );
}

/** Beside the step: the hand's events (each a link to its step), the coup re-resolved, its audit trail, the checks. */
function ReplayAside(props: {
  readonly folded: FoldedReplay;
  readonly step: number;
  readonly onStep: (s: number) => void;
  readonly verify: HandVerification | ApiError | null;
}) {
  const { t } = useTranslation('replay');
  const { folded } = props;
  const count = folded.steps.length;
  const mismatches = folded.steps.filter((s) => !s.matchesService).length;
  const check = useMemo(() => recheckCoup(folded), [folded]);
  const trail = useMemo(() => auditTrail(folded), [folded]);
  return (
    <div className="replay-aside">
      <section className="panel" aria-label={t('events.region')}>
        <h3>{t('events.title')}</h3>
        <p className={mismatches === 0 ? 'check-pass' : 'check-fail'}>
          {mismatches === 0
            ? t('events.allMatch', { count })
            : t('events.someDiffer', { count: mismatches, total: count })}
        </p>
        <EventList events={folded.steps.map((s) => s.event)} step={props.step} onStep={props.onStep} />
      </section>
      <section className="panel" aria-label={t('coup.region')}>
        <h3>{t('coup.title')}</h3>
        <CoupCheck check={check} />
      </section>
      <AuditTrail entries={trail} />
      <section className="panel" aria-label={t('verify.region')}>
        <h3>{t('verify.title')}</h3>
        <VerifyChecks verify={props.verify} />
      </section>
    </div>
  );
}

/**
 * A hand, replayed step by step: the events from the service (`GET .../replay`), the table after each folded in
 * this browser, the coup re-resolved by the engine, its audit trail when it was put right after it settled, and the
 * service's verify checks. The address carries the step (`#/tables/T1/hands/12?step=5`), for a compliance report;
 * printing gives a one-page record.
 */
export function ReplayScreen(props: {
  readonly token: string;
  readonly tableId: string;
  readonly roundNo: number;
  readonly initialStep: number | null;
  readonly api?: ReadApi;
  readonly playMs?: number;
}) {
  const { t } = useTranslation('replay');
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
        {t('header.link')} <a href={handHash(tableId, roundNo, shown)}>{link}</a>
      </p>
      {replay instanceof ApiError && (
        <div className="refusal" role="alert">
          <strong>{t('refused')}</strong> <code>{replay.code}</code> <span lang="en">{replay.message}</span>
        </div>
      )}
      {replay === null && <p className="muted">{t('loading')}</p>}
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
