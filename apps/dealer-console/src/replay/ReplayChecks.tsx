/**
 * The replay's checks beside the steps: the coup re-resolved by the engine (the result in force), the audit trail of
 * a coup put right after it settled (the original, each correction, a void: who, when, why), the service's verify
 * checks. The service's own words (a check's detail, a refusal) are shown as they are, marked English.
 */
import type { Outcome } from '@coup/engine';
import { Trans, useTranslation } from 'react-i18next';
import { ApiError } from '../api';
import { money } from '../format';
import { formatTime } from '../i18n';
import type { AuditEntry, AuditResult, Recheck } from './coup-audit';
import type { HandVerification } from '@coup/projections/wire';

/** "Banker wins 7 to 4" in the current language. */
function useResultWords(): (outcome: Outcome, player: number, banker: number) => string {
  const { t } = useTranslation('replay');
  return (outcome, player, banker) =>
    `${t(`game:outcomes.${outcome}`)} ${t('game:score', { player, banker })}`;
}

const B = { b: <strong /> };

function CheckedCoup({ check }: { readonly check: Extract<Recheck, { kind: 'checked' }> }) {
  const { t } = useTranslation('replay');
  const { engine } = check;
  const outcome = t(`game:outcomes.${engine.outcome}`);
  const score = t('game:score', { player: engine.playerTotal, banker: engine.bankerTotal });
  const value = (name: string, v: string) =>
    name === 'outcome'
      ? t(`hands.outcomes.${v}`, v)
      : v === 'true'
        ? t('coup.yes')
        : v === 'false'
          ? t('coup.no')
          : v;
  return (
    <>
      <p className={check.same ? 'check-pass' : 'check-fail'}>
        <strong>{check.same ? t('coup.matches') : t('coup.differs')}</strong>{' '}
        {!check.same
          ? t('coup.different')
          : t(check.corrected ? 'coup.sameCorrected' : 'coup.same', { outcome, score })}
      </p>
      <table className="grid">
        <thead>
          <tr>
            <th scope="col">{t('coup.columns.field')}</th>
            <th scope="col">{t(check.corrected ? 'coup.columns.inForce' : 'coup.columns.recorded')}</th>
            <th scope="col">{t('coup.columns.engine')}</th>
            <th scope="col">{t('coup.columns.check')}</th>
          </tr>
        </thead>
        <tbody>
          {check.fields.map((f) => (
            <tr key={f.name} className={f.same ? 'check-pass' : 'check-fail'}>
              <td>{t(`coup.fields.${f.name}`)}</td>
              <td>{value(f.name, f.recorded)}</td>
              <td>{value(f.name, f.engine)}</td>
              <td>{f.same ? t('coup.fieldSame') : t('coup.fieldDifferent')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

export function CoupCheck({ check }: { readonly check: Recheck }) {
  const { t } = useTranslation('replay');
  switch (check.kind) {
    case 'unfinished':
      return <p className="muted">{t('coup.unfinished')}</p>;
    case 'voided':
      return (
        <p className="voided" data-testid="coup-voided">
          {t(check.afterSettling ? 'coup.voidedAfter' : 'coup.voided', {
            by: check.by,
            reason: check.reason,
          })}
        </p>
      );
    case 'error':
      return (
        <p className="check-fail">
          <Trans t={t} i18nKey="coup.cannot" components={B} /> <span lang="en">{check.message}</span>
        </p>
      );
    default:
      return <CheckedCoup check={check} />;
  }
}

function ResultLine({ result }: { readonly result: AuditResult }) {
  const { t } = useTranslation('replay');
  const words = useResultWords();
  const values = {
    result: words(result.outcome, result.playerTotal, result.bankerTotal),
    natural: result.natural ? t('audit.natural') : '',
    player: result.playerCards.join(' '),
    banker: result.bankerCards.join(' '),
    paid: money(result.paid),
  };
  return (
    <>
      <Trans t={t} i18nKey="audit.resultLine" values={values} components={B} />
      {!result.matchesCards && (
        <>
          {' '}
          <span className="check-fail">{t('audit.unsupported')}</span>
        </>
      )}
    </>
  );
}

/** Who, when and why of a correction or a void, and the settlement it reversed. */
function Amended({ entry }: { readonly entry: Exclude<AuditEntry, { kind: 'original' }> }) {
  const { t } = useTranslation('replay');
  const role = t(`signin:roles.${entry.role}`, entry.role);
  return (
    <>
      <br />
      {t('audit.when', { time: formatTime(entry.at), user: entry.by, role })}
      <br />
      {t('audit.reason')}
      <q>{entry.reason}</q>
      <br />
      {t('audit.reversed', { amount: money(entry.reversedPaid) })}
    </>
  );
}

function AuditItem({ entry, n }: { readonly entry: AuditEntry; readonly n: number }) {
  const { t } = useTranslation('replay');
  const step = <span className="muted">{t('audit.step', { step: entry.step })}</span>;
  if (entry.kind === 'original')
    return (
      <li data-audit="original">
        <Trans t={t} i18nKey="audit.original" values={{ time: formatTime(entry.at) }} components={B} />
        {step}
        <br />
        <ResultLine result={entry.result} />
      </li>
    );
  if (entry.kind === 'void')
    return (
      <li data-audit="void">
        <strong>{t('audit.void')}</strong>
        {step}
        <Amended entry={entry} />
        <br />
        {t('audit.returned', { amount: money(entry.returned) })}
      </li>
    );
  const card = { n, order: entry.index + 1, from: entry.oldCard, to: entry.newCard };
  return (
    <li data-audit="correction">
      <Trans t={t} i18nKey="audit.correction" values={card} components={B} />
      {step}
      <Amended entry={entry} />
      <br />
      {t('audit.resultNow')} <ResultLine result={entry.result} />
    </li>
  );
}

/** The coup's audit trail after it settled, oldest first: nothing when it was never put right. */
export function AuditTrail({ entries }: { readonly entries: readonly AuditEntry[] }) {
  const { t } = useTranslation('replay');
  if (entries.length === 0) return null;
  let corrections = 0;
  return (
    <section className="panel audit-trail" aria-label={t('audit.region')}>
      <h3>{t('audit.title')}</h3>
      <ol>
        {entries.map((e) => (
          <AuditItem key={e.step} entry={e} n={e.kind === 'correction' ? ++corrections : 0} />
        ))}
      </ol>
    </section>
  );
}

const STATUSES = ['pass', 'fail', 'pending', 'skipped'] as const;

function VerifyTable({ verify }: { readonly verify: HandVerification }) {
  const { t } = useTranslation('replay');
  return (
    <table className="grid checks">
      <thead>
        <tr>
          <th scope="col">{t('verify.columns.check')}</th>
          <th scope="col">{t('verify.columns.status')}</th>
          <th scope="col">{t('verify.columns.detail')}</th>
        </tr>
      </thead>
      <tbody>
        {verify.checks.map((c) => (
          <tr key={c.name} className={`check-${c.status}`} data-check={c.name}>
            <td>{t(`verify.names.${c.name}`, c.name)}</td>
            <td>
              <strong>{t(`verify.statuses.${c.status}`)}</strong>
            </td>
            <td>
              <span lang="en">{c.detail}</span>
              {c.event &&
                ` ${t('verify.event', { type: t(`dealer:events.types.${c.event.type}`, c.event.type), revision: c.event.revision })}`}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function VerifyChecks({ verify }: { readonly verify: HandVerification | ApiError | null }) {
  const { t } = useTranslation('replay');
  if (verify === null) return <p className="muted">{t('verify.loading')}</p>;
  if (verify instanceof ApiError)
    return (
      <p className="check-fail" role="alert">
        {t('verify.refused')} <code>{verify.code}</code> <span lang="en">{verify.message}</span>
      </p>
    );
  const counts = STATUSES.map((st) => [st, verify.checks.filter((c) => c.status === st).length] as const)
    .filter(([st, n]) => n > 0 || st === 'fail')
    .map(([st, n]) => t(`verify.counts.${st}`, { count: n }));
  return (
    <>
      <p className={verify.ok ? 'check-pass' : 'check-fail'} aria-label={t('verify.label')}>
        <Trans
          t={t}
          i18nKey="verify.summary"
          values={{
            verdict: verify.ok ? t('verify.ok') : t('verify.notOk'),
            counts: counts.join(t('verify.separator')),
          }}
          components={B}
        />
      </p>
      <VerifyTable verify={verify} />
    </>
  );
}
