/** The pit's commands at a table: buy a player in, and close the table (cashing every player out if asked). */
import { PLAYER_ID_PATTERN } from '@coup/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { money } from '../format';
import { TextField } from './Field';
import type { CloseAnswer, PitApi } from './pitApi';
import { RefusalNote, useCommand } from './Refusal';
import { centsOf } from './rulesForm';

/** What the buy-in form refuses before asking the service: the field and the catalogue key. */
export function checkBuyIn(playerId: string, amount: string): { field: string; key: string } | null {
  if (!PLAYER_ID_PATTERN.test(playerId)) return { field: 'playerId', key: 'buyIn.badPlayer' };
  const cents = centsOf(amount);
  if (typeof cents !== 'number' || cents <= 0) return { field: 'amount', key: 'buyIn.badAmount' };
  return null;
}

/** The buy-in's fields, its own check, and the service's answer. */
function useBuyIn(pit: PitApi, tableId: string, onDone: () => unknown) {
  const { t } = useTranslation('pit');
  const [playerId, setPlayerId] = useState('');
  const [amount, setAmount] = useState('');
  const [refused, setRefused] = useState<{ field: string; key: string } | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const { error, busy, run } = useCommand();
  const submit = async () => {
    setDone(null);
    const check = checkBuyIn(playerId.trim(), amount);
    setRefused(check);
    if (check) return;
    await run(async () => {
      const r = await pit.buyIn(tableId, playerId.trim(), centsOf(amount) as number);
      setDone(t('buyIn.done', { player: r.playerId, amount: money(r.amount), chips: money(r.chips) }));
      setAmount('');
    });
    await onDone();
  };
  // a refusal goes as soon as its field is typed in again
  const edit = (field: string, set: (v: string) => void) => (v: string) => {
    set(v);
    setRefused((r) => (r?.field === field ? null : r));
  };
  return {
    playerId,
    setPlayerId: edit('playerId', setPlayerId),
    amount,
    setAmount: edit('amount', setAmount),
    refused,
    done,
    error,
    busy,
    submit,
  };
}

export function BuyInForm(props: {
  readonly pit: PitApi;
  readonly tableId: string;
  readonly onDone: () => unknown;
}) {
  const { t } = useTranslation('pit');
  const { playerId, setPlayerId, amount, setAmount, refused, done, error, busy, submit } = useBuyIn(
    props.pit,
    props.tableId,
    props.onDone,
  );
  const at = (field: string) => (refused?.field === field ? t(refused.key) : null);
  return (
    <form
      className="panel buy-in"
      aria-labelledby="buy-in-heading"
      noValidate
      onSubmit={(e) => (e.preventDefault(), void submit())}
    >
      <h3 id="buy-in-heading">{t('buyIn.heading')}</h3>
      <TextField
        name="playerId"
        label={t('buyIn.player')}
        value={playerId}
        onChange={setPlayerId}
        error={at('playerId')}
      />
      <TextField
        name="amount"
        label={t('buyIn.amount')}
        inputMode="decimal"
        value={amount}
        onChange={setAmount}
        error={at('amount')}
      />
      <RefusalNote error={error} />
      {done && (
        <p className="done" role="status">
          {done}
        </p>
      )}
      <button type="submit" disabled={busy}>
        {t('buyIn.submit')}
      </button>
    </form>
  );
}

/**
 * Close the table between rounds. While players hold chips the service refuses (PLAYERS_SEATED): the pit may then
 * close it with every player cashed out, each recorded, and the receipts go to `onClosed`.
 */
export function CloseTable(props: {
  readonly pit: PitApi;
  readonly tableId: string;
  readonly onClosed: (receipts: CloseAnswer['cashedOut']) => void;
  readonly onDone: () => unknown;
}) {
  const { t } = useTranslation('pit');
  const { error, busy, run } = useCommand();
  const close = async (cashOutAll: boolean) => {
    await run(async () => props.onClosed((await props.pit.closeTable(props.tableId, cashOutAll)).cashedOut));
    await props.onDone();
  };
  return (
    <section className="panel close-table" aria-labelledby="close-heading">
      <h3 id="close-heading">{t('close.heading')}</h3>
      <p className="field-hint">{t('close.hint')}</p>
      <RefusalNote error={error} />
      <button type="button" disabled={busy} onClick={() => void close(false)}>
        {t('close.submit')}
      </button>
      {error?.code === 'PLAYERS_SEATED' && (
        <button type="button" className="danger" disabled={busy} onClick={() => void close(true)}>
          {t('close.cashOutAll')}
        </button>
      )}
    </section>
  );
}
