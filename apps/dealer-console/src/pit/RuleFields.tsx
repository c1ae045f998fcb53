/** The open-a-table form's sections: every rule of a table, each refusal shown at its control. */
import { SIDE_SPOTS, GAME_MODES, type SideSpot, sideBetRefusal } from '@coup/engine';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CheckField, SelectField, TextField } from './Field';
import { type LimitForm, type RulesForm, type SideBetForm, paytablesOf } from './rulesForm';

export interface SectionProps {
  readonly form: RulesForm;
  readonly set: (patch: Partial<RulesForm>) => void;
  /** The refusal shown at a control, or null. */
  readonly errorAt: (control: string) => ReactNode;
}

/** Options from values, each labelled from the catalogue (`pit:rules.<key>.<value>`). */
function useOptions() {
  const { t } = useTranslation('pit');
  return <V extends string>(key: string, values: readonly V[]) =>
    values.map((value) => ({ value, label: t(`rules.${key}.${value}`) }));
}

export function DealingSection({ form, set, errorAt }: SectionProps) {
  const { t } = useTranslation('pit');
  const options = useOptions();
  return (
    <fieldset className="rules-section">
      <legend>{t('rules.sections.dealing')}</legend>
      <TextField
        name="tableId"
        label={t('rules.tableId')}
        hint={t('rules.tableIdHint')}
        value={form.tableId}
        onChange={(tableId) => set({ tableId })}
        error={errorAt('tableId')}
      />
      <SelectField
        name="dealing"
        label={t('rules.dealing.label')}
        value={form.dealing}
        options={options('dealing', ['rng', 'live'] as const)}
        onChange={(dealing) => set({ dealing })}
        error={errorAt('dealing')}
      />
      <SelectField
        name="dealtBy"
        label={t('rules.dealtBy.label')}
        value={form.dealtBy}
        options={options('dealtBy', ['dealer', 'player'] as const)}
        onChange={(dealtBy) => set({ dealtBy })}
        error={errorAt('dealtBy')}
      />
      <TextField
        name="decks"
        label={t('rules.decks')}
        inputMode="numeric"
        value={form.decks}
        onChange={(decks) => set({ decks })}
        error={errorAt('decks')}
      />
      <SelectField
        name="shuffle"
        label={t('rules.shuffle.label')}
        value={form.shuffle}
        options={options('shuffle', ['shoe', 'every-coup'] as const)}
        onChange={(shuffle) => set({ shuffle })}
        error={errorAt('shuffle')}
      />
      <TextField
        name="cutCard"
        label={t('rules.cutCard')}
        hint={t('rules.cutCardHint')}
        inputMode="numeric"
        value={form.cutCard}
        onChange={(cutCard) => set({ cutCard })}
        error={errorAt('cutCard')}
      />
    </fieldset>
  );
}

export function GameSection({ form, set, errorAt }: SectionProps) {
  const { t } = useTranslation('pit');
  const options = useOptions();
  return (
    <fieldset className="rules-section">
      <legend>{t('rules.sections.game')}</legend>
      <SelectField
        name="game"
        label={t('rules.game.label')}
        value={form.game}
        options={options('game', GAME_MODES)}
        onChange={(game) => set({ game })}
        error={errorAt('game')}
      />
      <SelectField
        name="commission"
        label={t('rules.commission.label')}
        disabled={form.game !== 'commission'}
        value={form.commission}
        options={options('commission', ['deducted', 'box'] as const)}
        onChange={(commission) => set({ commission })}
        error={errorAt('commission')}
      />
      <SelectField
        name="tiePays"
        label={t('rules.tiePays.label')}
        value={form.tiePays}
        options={options('tiePays', ['8', '9'] as const)}
        onChange={(tiePays) => set({ tiePays })}
        error={errorAt('tiePays')}
      />
      <CheckField
        name="allowPlayerAndBanker"
        label={t('rules.allowPlayerAndBanker')}
        checked={form.allowPlayerAndBanker}
        onChange={(allowPlayerAndBanker) => set({ allowPlayerAndBanker })}
        error={errorAt('allowPlayerAndBanker')}
      />
      <CheckField
        name="confirmResult"
        label={t('rules.confirmResult')}
        hint={t('rules.confirmResultHint')}
        checked={form.confirmResult}
        onChange={(confirmResult) => set({ confirmResult })}
        error={errorAt('confirmResult')}
      />
    </fieldset>
  );
}

function LimitFields(props: SectionProps & { readonly spot: 'player' | 'banker' | 'tie' }) {
  const { t } = useTranslation('pit');
  const { form, set, errorAt, spot } = props;
  const change = (patch: Partial<LimitForm>) =>
    set({ limits: { ...form.limits, [spot]: { ...form.limits[spot], ...patch } } });
  const spotName = t(`spots.${spot}`);
  return (
    <div className="limit-pair">
      <TextField
        name={`limits.${spot}.min`}
        label={t('rules.limitMin', { spot: spotName })}
        inputMode="decimal"
        value={form.limits[spot].min}
        onChange={(min) => change({ min })}
        error={errorAt(`limits.${spot}.min`)}
      />
      <TextField
        name={`limits.${spot}.max`}
        label={t('rules.limitMax', { spot: spotName })}
        inputMode="decimal"
        value={form.limits[spot].max}
        onChange={(max) => change({ max })}
        error={errorAt(`limits.${spot}.max`)}
      />
    </div>
  );
}

export function MoneySection(props: SectionProps) {
  const { t } = useTranslation('pit');
  const { form, set, errorAt } = props;
  return (
    <fieldset className="rules-section">
      <legend>{t('rules.sections.money')}</legend>
      <TextField
        name="chips"
        label={t('rules.chips')}
        hint={t('rules.chipsHint')}
        value={form.chips}
        onChange={(chips) => set({ chips })}
        error={errorAt('chips')}
      />
      {(['player', 'banker', 'tie'] as const).map((spot) => (
        <LimitFields key={spot} {...props} spot={spot} />
      ))}
      <TextField
        name="maxStakes"
        label={t('rules.maxStakes')}
        hint={t('rules.maxStakesHint')}
        inputMode="numeric"
        value={form.maxStakes}
        onChange={(maxStakes) => set({ maxStakes })}
        error={errorAt('maxStakes')}
      />
    </fieldset>
  );
}

export function TimingSection({ form, set, errorAt }: SectionProps) {
  const { t } = useTranslation('pit');
  return (
    <fieldset className="rules-section">
      <legend>{t('rules.sections.timing')}</legend>
      <TextField
        name="bettingSeconds"
        label={t('rules.bettingSeconds')}
        hint={t('rules.bettingSecondsHint')}
        inputMode="numeric"
        value={form.bettingSeconds}
        onChange={(bettingSeconds) => set({ bettingSeconds })}
        error={errorAt('bettingSeconds')}
      />
      <TextField
        name="correctionSeconds"
        label={t('rules.correctionSeconds')}
        hint={t('rules.correctionSecondsHint')}
        inputMode="numeric"
        value={form.correctionSeconds}
        onChange={(correctionSeconds) => set({ correctionSeconds })}
        error={errorAt('correctionSeconds')}
      />
    </fieldset>
  );
}

function SideBetRow(props: SectionProps & { readonly spot: SideSpot }) {
  const { t } = useTranslation('pit');
  const { form, set, errorAt, spot } = props;
  const bet = form.sideBets[spot];
  const change = (patch: Partial<SideBetForm>) =>
    set({ sideBets: { ...form.sideBets, [spot]: { ...bet, ...patch } } });
  const decks = Number(form.decks);
  const allowed =
    sideBetRefusal(spot, { game: form.game, shuffle: form.shuffle, ...(decks > 0 ? { decks } : {}) }) ===
    null;
  const name = `sideBets.${spot}`;
  return (
    <div className="side-bet-rule" role="group" aria-label={t(`spots.${spot}`)}>
      <CheckField
        name={name}
        label={t(`spots.${spot}`)}
        hint={allowed ? null : t('rules.sideBetNotHere')}
        checked={bet.offered}
        onChange={(offered) => change({ offered })}
        error={errorAt(name)}
      />
      <SelectField
        name={`${name}.paytable`}
        label={t('rules.paytable')}
        disabled={!bet.offered}
        value={bet.paytable}
        options={paytablesOf(spot).map((p) => ({
          value: p,
          label: t(`paytables.${p.replace(/\./g, '_')}`, { defaultValue: p }),
        }))}
        onChange={(paytable) => change({ paytable })}
        error={errorAt(`${name}.paytable`)}
      />
      <TextField
        name={`${name}.min`}
        label={t('rules.sideMin')}
        disabled={!bet.offered}
        inputMode="decimal"
        value={bet.min}
        onChange={(min) => change({ min })}
        error={errorAt(`${name}.min`)}
      />
      <TextField
        name={`${name}.max`}
        label={t('rules.sideMax')}
        disabled={!bet.offered}
        inputMode="decimal"
        value={bet.max}
        onChange={(max) => change({ max })}
        error={errorAt(`${name}.max`)}
      />
    </div>
  );
}

export function SideBetsSection(props: SectionProps) {
  const { t } = useTranslation('pit');
  return (
    <fieldset className="rules-section side-bets-section">
      <legend>{t('rules.sections.sideBets')}</legend>
      <p className="field-hint">{t('rules.sideBetsHint')}</p>
      {SIDE_SPOTS.map((spot) => (
        <SideBetRow key={spot} {...props} spot={spot} />
      ))}
    </fieldset>
  );
}
