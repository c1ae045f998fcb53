/**
 * One table for the pit: its players with their chips and the box commission they owe, a buy-in, a cash-out per
 * player (the receipt shows the cash paid and the commission collected from the chips first), and closing the table
 * (with every player cashed out, when players still hold chips).
 */
import type { TableView } from '@coup/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Api, ApiError } from '../api';
import { money } from '../format';
import { useTableFeed } from '../useTableFeed';
import type { CashOutAnswer, PitApi } from './pitApi';
import { BuyInForm, CloseTable } from './PitTableForms';
import { RefusalNote, useCommand } from './Refusal';

/** A cash-out done from this screen: who, the cash paid and the commission collected. */
export type Receipt = Omit<CashOutAnswer, 'commissionOwed'> & { readonly commissionOwed?: number };

export function Receipts({ receipts }: { readonly receipts: readonly Receipt[] }) {
  const { t } = useTranslation('pit');
  return (
    <section className="panel receipts" aria-labelledby="receipts-heading" aria-live="polite">
      <h3 id="receipts-heading">{t('table.receipts')}</h3>
      {receipts.length === 0 ? (
        <p className="muted">{t('table.noReceipts')}</p>
      ) : (
        <ul>
          {receipts.map((r, i) => (
            <li key={`${r.playerId}-${i}`} className="receipt">
              {t('table.receipt', {
                player: r.playerId,
                paid: money(r.paid),
                commission: money(r.commissionCollected),
              })}
              {r.commissionOwed ? ` ${t('table.stillOwed', { owed: money(r.commissionOwed) })}` : ''}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Players(props: {
  readonly view: TableView;
  readonly busy: boolean;
  readonly onCashOut: (playerId: string) => void;
}) {
  const { t } = useTranslation('pit');
  const { players } = props.view;
  return (
    <section className="panel" aria-labelledby="players-heading">
      <h3 id="players-heading">{t('table.players', { count: players.length })}</h3>
      {players.length === 0 ? (
        <p className="muted">{t('table.noPlayers')}</p>
      ) : (
        <table className="players-table">
          <thead>
            <tr>
              <th scope="col">{t('table.player')}</th>
              <th scope="col">{t('table.chips')}</th>
              <th scope="col">{t('table.commissionOwed')}</th>
              <th scope="col">{t('table.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {players.map((p) => (
              <tr key={p.playerId}>
                <th scope="row">{p.playerId}</th>
                <td>{money(p.chips)}</td>
                <td>{money(p.commissionOwed)}</td>
                <td>
                  <button type="button" disabled={props.busy} onClick={() => props.onCashOut(p.playerId)}>
                    {t('table.cashOut', { player: p.playerId })}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function TableFacts({ tableId, view }: { readonly tableId: string; readonly view: TableView | null }) {
  const { t } = useTranslation('pit');
  const rules = view?.rules;
  return (
    <header className="table-header">
      <h2>{t('table.heading', { tableId })}</h2>
      {view && <span className={`phase phase-${view.phase}`}>{t(`phases.${view.phase}`)}</span>}
      {view && <span>{t('table.round', { roundNo: view.roundNo })}</span>}
      {rules && (
        <span className="muted">
          {t(`rules.dealing.${rules.dealing}`)} · {t('table.decks', { count: rules.decks })} ·{' '}
          {t(`rules.game.${rules.game ?? 'commission'}`)}
          {(rules.game ?? 'commission') === 'commission' && ` · ${t(`rules.commission.${rules.commission}`)}`}
        </span>
      )}
      <a href={`#/tables/${encodeURIComponent(tableId)}/hands`}>{t('table.hands')}</a>
    </header>
  );
}

export function PitTable(props: {
  readonly api: Api;
  readonly pit: PitApi;
  readonly token: string;
  readonly tableId: string;
}) {
  const { api, pit, token, tableId } = props;
  const { state, refresh } = useTableFeed(api, token, tableId);
  const [receipts, setReceipts] = useState<readonly Receipt[]>([]);
  const { error, busy, run } = useCommand();
  const cashOut = async (playerId: string) => {
    await run(async () => {
      const r = await pit.cashOut(tableId, playerId);
      setReceipts((list) => [r, ...list]);
    });
    await refresh();
  };
  const view = state.view;
  const feedError =
    state.connection === 'failed' && state.error
      ? new ApiError(0, state.error.code, state.error.message)
      : null;
  return (
    <div className="pit-table">
      <TableFacts tableId={tableId} view={view} />
      <RefusalNote error={error ?? feedError} />
      {view && <Players view={view} busy={busy} onCashOut={(p) => void cashOut(p)} />}
      <div className="pit-forms">
        <BuyInForm pit={pit} tableId={tableId} onDone={refresh} />
        <Receipts receipts={receipts} />
      </div>
      {view?.status === 'open' && (
        <CloseTable
          pit={pit}
          tableId={tableId}
          onClosed={(r) => setReceipts((l) => [...r, ...l])}
          onDone={refresh}
        />
      )}
    </div>
  );
}
