/**
 * One staff account's changes, each saved on its own (and each ending the account's earlier tokens): its roles, its
 * tables, disabling (with a reason) or enabling it, and a new password for a password account.
 */
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from './Field';
import type { PitApi, StaffAccount } from './pitApi';
import { RefusalNote } from './Refusal';
import { RolesField, listOf, useStaffCommand } from './StaffForms';

interface PartProps {
  readonly pit: PitApi;
  readonly account: StaffAccount;
  readonly onChanged: () => unknown;
}

/** A part of the editor: its fields, a button that saves them, and a refusal not about one of them. */
function Part(props: {
  readonly fields: (at: (field: string) => ReactNode) => ReactNode;
  readonly save: string;
  readonly danger?: boolean;
  readonly command: () => Promise<unknown>;
  readonly onChanged: () => unknown;
}) {
  const { run, busy, at, unplaced } = useStaffCommand();
  const act = async () => {
    if (await run(props.command)) await props.onChanged();
  };
  return (
    <div className="editor-part">
      {props.fields(at)}
      <button
        type="button"
        className={props.danger ? 'danger' : undefined}
        disabled={busy}
        onClick={() => void act()}
      >
        {props.save}
      </button>
      <RefusalNote error={unplaced} />
    </div>
  );
}

function RolesPart({ pit, account, onChanged }: PartProps) {
  const { t } = useTranslation('pit');
  const [roles, setRoles] = useState<string[]>([...account.roles]);
  const u = account.username;
  return (
    <Part
      save={t('staff.saveRoles')}
      command={() => pit.setRoles(u, roles)}
      onChanged={onChanged}
      fields={(at) => (
        <RolesField name={`roles-${u}`} roles={roles} onChange={setRoles} error={at('roles')} />
      )}
    />
  );
}

function TablesPart({ pit, account, onChanged }: PartProps) {
  const { t } = useTranslation('pit');
  const [tables, setTables] = useState((account.tables ?? []).join(', '));
  const u = account.username;
  return (
    <Part
      save={t('staff.saveTables')}
      command={() => pit.setTables(u, listOf(tables))}
      onChanged={onChanged}
      fields={(at) => (
        <TextField
          name={`tables-${u}`}
          label={t('staff.tables')}
          hint={t('staff.tablesHint')}
          value={tables}
          onChange={setTables}
          error={at('tables')}
        />
      )}
    />
  );
}

function StatusPart({ pit, account, onChanged }: PartProps) {
  const { t } = useTranslation('pit');
  const [reason, setReason] = useState('');
  const u = account.username;
  if (account.disabled)
    return (
      <Part
        save={t('staff.enable')}
        command={() => pit.enable(u)}
        onChanged={onChanged}
        fields={() => null}
      />
    );
  return (
    <Part
      save={t('staff.disable')}
      danger
      command={() => pit.disable(u, reason)}
      onChanged={onChanged}
      fields={(at) => (
        <TextField
          name={`reason-${u}`}
          label={t('staff.reason')}
          value={reason}
          onChange={setReason}
          error={at('reason')}
        />
      )}
    />
  );
}

function PasswordPart({ pit, account, onChanged }: PartProps) {
  const { t } = useTranslation('pit');
  const [password, setPassword] = useState('');
  const u = account.username;
  return (
    <Part
      save={t('staff.resetPassword')}
      command={() => pit.resetPassword(u, password)}
      onChanged={onChanged}
      fields={(at) => (
        <TextField
          name={`password-${u}`}
          type="password"
          autoComplete="new-password"
          label={t('staff.newPassword')}
          hint={t('staff.passwordHint')}
          value={password}
          onChange={setPassword}
          error={at('password')}
        />
      )}
    />
  );
}

export function AccountEditor(props: PartProps) {
  const { t } = useTranslation('pit');
  return (
    <div
      className="account-editor"
      role="group"
      aria-label={t('staff.manage', { user: props.account.username })}
    >
      <RolesPart {...props} />
      <TablesPart {...props} />
      <StatusPart {...props} />
      {props.account.source === 'password' && <PasswordPart {...props} />}
    </div>
  );
}
