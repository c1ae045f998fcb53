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
/** Where a validation's message goes on to its next problem: `; ` before a field's name or an unknown property. */
const PROBLEM_BREAK = new RegExp(
  `; (?=(?:each value in )?(?:${STAFF_FIELDS.join('|')}|property|unknown field)\\b)`,
);

/** The field of a staff form a refusal is about, or null (shown above the form). */
export function staffFieldOf(e: ApiError): string | null {
  return staffRefusals(e)[0]?.field ?? null;
}

/**
 * Each problem of a staff form's refusal with the field it is about (null: shown above the form) and its words in
 * the API's English: a validation names every problem (`password must be ...; roles must ...`), one at each field.
 */
export function staffRefusals(e: ApiError): { readonly field: string | null; readonly detail: string }[] {
  const single = (field: string | null) => [{ field, detail: e.message }];
  switch (e.code) {
    case 'ACCOUNT_EXISTS':
    case 'INVALID_USERNAME':
      return single('username');
    case 'INVALID_ROLES':
    case 'LAST_ADMIN':
      return single('roles');
    case 'INVALID_TABLES':
      return single('tables');
    case 'INVALID_REASON':
      return single('reason');
    case 'VALIDATION_FAILED':
      // problems are joined by '; ', which a problem's own words may hold too: split before a field's name only
      return e.message.split(PROBLEM_BREAK).map((detail) => {
        const first = /^(?:each value in )?(\w+)/.exec(detail)?.[1] ?? '';
        return { field: (STAFF_FIELDS as readonly string[]).includes(first) ? first : null, detail };
      });
    default:
      return single(null);
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

/**
 * A staff command's pending state, and its refusal at each field it is about: a validation's problem in the field's
 * own words, another refusal in its code's, the service's English beside either.
 */
export function useStaffCommand() {
  const { t } = useTranslation('pit');
  const { error, busy, run } = useCommand();
  const refusals = error ? staffRefusals(error) : [];
  const at = (field: string): ReactNode => {
    const here = error ? refusals.filter((r) => r.field === field) : [];
    if (!error || here.length === 0) return null;
    if (error.code !== 'VALIDATION_FAILED') return <RefusalText code={error.code} message={error.message} />;
    return (
      <>
        {t(`staffErrors.${field}`)}{' '}
        <span className="refusal-detail" lang="en">
          ({error.code}: {here.map((r) => r.detail).join('; ')})
        </span>
      </>
    );
  };
  const unplaced = error && refusals.some((r) => r.field === null) ? error : null;
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
