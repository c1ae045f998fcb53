/**
 * Staff account forms: make an account (user name, password, roles, tables), and the pieces the account editor
 * shares. A refusal of the service is shown at the field it is about.
 */
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiError } from '../api';
import { STAFF_ROLES } from '../signin/StaffSignIn';
import { TextField, controlId } from './Field';
import type { PitApi, StaffAccount } from './pitApi';
import { RefusalNote, RefusalText, useCommand } from './Refusal';

const STAFF_FIELDS = ['username', 'password', 'roles', 'tables', 'reason'] as const;

/** The field of a staff form a refusal is about, or null (shown above the form). */
export function staffFieldOf(e: ApiError): string | null {
  switch (e.code) {
    case 'ACCOUNT_EXISTS':
    case 'INVALID_USERNAME':
      return 'username';
    case 'INVALID_ROLES':
    case 'LAST_ADMIN':
      return 'roles';
    case 'INVALID_TABLES':
      return 'tables';
    case 'INVALID_REASON':
      return 'reason';
    case 'VALIDATION_FAILED': {
      const first = /^(\w+)/.exec(e.message)?.[1] ?? '';
      return (STAFF_FIELDS as readonly string[]).includes(first) ? first : null;
    }
    default:
      return null;
  }
}

/** `a, b c` -> `['a', 'b', 'c']`. */
export const listOf = (text: string): string[] => text.split(/[\s,]+/).filter((x) => x !== '');

/** The roles as checkboxes in a group, its refusal read with the group. */
export function RolesField(props: {
  readonly name: string;
  readonly roles: readonly string[];
  readonly onChange: (roles: string[]) => void;
  readonly error?: ReactNode;
}) {
  const { t } = useTranslation('pit');
  const id = controlId(props.name);
  return (
    <fieldset className="field roles-field" aria-describedby={props.error ? `${id}-error` : undefined}>
      <legend>{t('staff.roles')}</legend>
      {STAFF_ROLES.map((r) => (
        <label key={r} className="inline">
          <input
            type="checkbox"
            id={r === STAFF_ROLES[0] ? id : undefined}
            checked={props.roles.includes(r)}
            onChange={(e) =>
              props.onChange(
                e.target.checked
                  ? STAFF_ROLES.filter((x) => x === r || props.roles.includes(x))
                  : props.roles.filter((x) => x !== r),
              )
            }
          />{' '}
          {t(`signin:roles.${r}`)}
        </label>
      ))}
      {props.error && (
        <span id={`${id}-error`} className="field-error">
          {props.error}
        </span>
      )}
    </fieldset>
  );
}

/** A staff command's pending state, and its refusal at the field it is about. */
export function useStaffCommand() {
  const { error, busy, run } = useCommand();
  const at = (field: string): ReactNode =>
    error && staffFieldOf(error) === field ? <RefusalText code={error.code} message={error.message} /> : null;
  const unplaced = error && staffFieldOf(error) === null ? error : null;
  return { run, busy, at, unplaced, error };
}

/** The new account's fields and the service's answer. */
function useCreateStaff(pit: PitApi, onCreated: (a: StaffAccount) => unknown) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [roles, setRoles] = useState<string[]>(['dealer']);
  const [tables, setTables] = useState('');
  const command = useStaffCommand();
  const submit = async () => {
    let made: StaffAccount | null = null;
    const account = { username: username.trim(), password, roles, tables: listOf(tables) };
    const ok = await command.run(async () => {
      made = await pit.createStaff(account);
    });
    if (!ok || !made) return;
    setUsername('');
    setPassword('');
    setTables('');
    await onCreated(made);
  };
  return {
    username,
    setUsername,
    password,
    setPassword,
    roles,
    setRoles,
    tables,
    setTables,
    command,
    submit,
  };
}

export function CreateStaffForm(props: {
  readonly pit: PitApi;
  readonly onCreated: (a: StaffAccount) => unknown;
}) {
  const { t } = useTranslation('pit');
  const f = useCreateStaff(props.pit, props.onCreated);
  const { at, busy, unplaced } = f.command;
  return (
    <form
      className="panel staff-create"
      aria-labelledby="staff-create-heading"
      noValidate
      onSubmit={(e) => (e.preventDefault(), void f.submit())}
    >
      <h3 id="staff-create-heading">{t('staff.create')}</h3>
      <TextField
        name="username"
        label={t('staff.username')}
        hint={t('staff.usernameHint')}
        value={f.username}
        onChange={f.setUsername}
        error={at('username')}
      />
      <TextField
        name="password"
        type="password"
        autoComplete="new-password"
        label={t('staff.password')}
        hint={t('staff.passwordHint')}
        value={f.password}
        onChange={f.setPassword}
        error={at('password')}
      />
      <RolesField name="roles" roles={f.roles} onChange={f.setRoles} error={at('roles')} />
      <TextField
        name="tables"
        label={t('staff.tables')}
        hint={t('staff.tablesHint')}
        value={f.tables}
        onChange={f.setTables}
        error={at('tables')}
      />
      <RefusalNote error={unplaced} />
      <button type="submit" disabled={busy}>
        {t('staff.createSubmit')}
      </button>
    </form>
  );
}
