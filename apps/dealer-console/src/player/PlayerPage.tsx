/**
 * The online single-player game (rules text 000) on the player's personal table: chips stacked by denomination,
 * bet fields, CLEAR BET / REBET (key 0) / DEAL, the coup dealt card by card, sound, help, exit, and the history with
 * the shuffle commitments checked against the revealed seeds. Every action is one service command; the page shows
 * the service's view after it (and the service's refusal when one comes). The state and the actions live in
 * {@link usePlayerTable}; this component holds only what the page itself chooses (the chip, help, the buy-in text).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Spot, TableEvent } from '@coup/table';
import { canDeal } from './betting';
import { BuyInForm } from './BuyInForm';
import { ChipRack } from './ChipRack';
import { Felt } from './Felt';
import { HelpPanel } from './HelpPanel';
import { History } from './History';
import { PlayerBanners } from './PlayerBanners';
import type { PlayerApi } from './playerApi';
import { PlayerToolbar } from './PlayerToolbar';
import type { AudioLike } from './sound';
import { usePlayerKeys } from './usePlayerKeys';
import { usePlayerTable } from './usePlayerTable';
import { useSound } from './useSound';

export interface PlayerPageProps {
  readonly api: PlayerApi;
  readonly playerId: string;
  /** The table's events as this player sees them (for the history). */
  readonly loadHistory: (tableId: string) => Promise<readonly TableEvent[]>;
  /** Milliseconds between dealt cards. */
  readonly revealMs?: number;
  readonly storage?: Storage | null;
  readonly audio?: () => AudioLike | null;
}

/** What the player chooses on the page: the chip (the smallest until one is chosen) and help; with the keys. */
function useChoices(table: ReturnType<typeof usePlayerTable>, toggleSound: () => void) {
  const { rules, actions } = table;
  const [chosen, setChip] = useState<number | null>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  const chip = chosen ?? rules?.chips[0] ?? null;
  const placeBet = (spot: Spot) => actions.placeBet(spot, chip);
  usePlayerKeys({
    ...actions,
    placeBet,
    selectChip: (i) => {
      const c = rules?.chips[i];
      if (c !== undefined) setChip(c);
      return c !== undefined;
    },
    toggleSound,
    toggleHelp: () => setHelpOpen((o) => !o),
    closeHelp: () => setHelpOpen(false),
  });
  return { chip, setChip, helpOpen, setHelpOpen, placeBet };
}

export function PlayerPage({
  api,
  playerId,
  loadHistory,
  revealMs = 450,
  storage = null,
  audio,
}: PlayerPageProps) {
  const { t } = useTranslation('player');
  const { soundOn, toggleSound, sound } = useSound(storage, audio);
  const table = usePlayerTable({ api, playerId, loadHistory, revealMs, sound });
  const { view, rules, tableId, actions, locked, bets } = table;
  const { chip, setChip, helpOpen, setHelpOpen, placeBet } = useChoices(table, toggleSound);
  const [buyIn, setBuyIn] = useState('1000');

  if (table.loadError)
    return (
      <p role="alert" className="banner banner-error">
        {t('openFailed', { error: table.loadError })}
      </p>
    );
  if (!view || !rules || !tableId) return <p className="muted">{t('opening')}</p>;

  return (
    <div className="player-page">
      <PlayerToolbar
        tableId={tableId}
        balance={table.balance}
        soundOn={soundOn}
        helpOpen={helpOpen}
        onToggleSound={toggleSound}
        onExit={actions.exit}
        onToggleHelp={() => setHelpOpen((o) => !o)}
      />
      <PlayerBanners
        notice={table.notice}
        refusal={table.refusal}
        canDeal={!locked && canDeal(rules, bets)}
        canClear={!locked && table.total > 0}
        onDeal={() => actions.deal()}
        onClear={actions.clear}
      />
      {table.me === null ? (
        <BuyInForm
          amount={buyIn}
          busy={table.busy}
          onAmount={setBuyIn}
          onSubmit={() => actions.buyIn(buyIn)}
        />
      ) : (
        <div className="player-main">
          <Felt table={table} rules={rules} onBet={placeBet} actions={actions} />
          <ChipRack balance={table.balance} rules={rules} chip={chip} onChip={setChip} />
        </div>
      )}
      {helpOpen && <HelpPanel rules={rules} onClose={() => setHelpOpen(false)} />}
      <History tableId={tableId} entries={table.history} error={table.historyError} account={table.account} />
    </div>
  );
}
