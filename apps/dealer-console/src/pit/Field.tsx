/**
 * Labelled form controls whose refusal is shown beside them: the control is `aria-invalid` and described by the
 * message, so a screen reader reads why with the field.
 */
import type { ReactNode } from 'react';

/** The element id of a control named like an API field (`limits.player.min` -> `field-limits-player-min`). */
export const controlId = (name: string): string => `field-${name.replace(/[^A-Za-z0-9_-]+/g, '-')}`;

interface Common {
  readonly name: string;
  readonly label: ReactNode;
  /** The refusal shown at this control, or null. */
  readonly error?: ReactNode;
  readonly hint?: ReactNode;
  readonly disabled?: boolean;
}

function Described(props: { readonly name: string; readonly error?: ReactNode; readonly hint?: ReactNode }) {
  const id = controlId(props.name);
  return (
    <>
      {props.hint && (
        <span id={`${id}-hint`} className="field-hint">
          {props.hint}
        </span>
      )}
      {props.error && (
        <span id={`${id}-error`} className="field-error">
          {props.error}
        </span>
      )}
    </>
  );
}

function describedBy(p: Common): { 'aria-invalid'?: true; 'aria-describedby'?: string } {
  const id = controlId(p.name);
  const ids = [p.hint ? `${id}-hint` : null, p.error ? `${id}-error` : null].filter((x) => x !== null);
  return {
    ...(p.error ? { 'aria-invalid': true as const } : {}),
    ...(ids.length > 0 ? { 'aria-describedby': ids.join(' ') } : {}),
  };
}

export function TextField(
  props: Common & {
    readonly value: string;
    readonly onChange: (value: string) => void;
    readonly type?: 'text' | 'password';
    readonly inputMode?: 'numeric' | 'decimal' | 'text';
    readonly autoComplete?: string;
  },
) {
  const id = controlId(props.name);
  return (
    <div className={`field${props.error ? ' field-refused' : ''}`}>
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        type={props.type ?? 'text'}
        inputMode={props.inputMode}
        autoComplete={props.autoComplete ?? 'off'}
        spellCheck={false}
        disabled={props.disabled}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        {...describedBy(props)}
      />
      <Described name={props.name} error={props.error} hint={props.hint} />
    </div>
  );
}

export function SelectField<V extends string>(
  props: Common & {
    readonly value: V;
    readonly options: readonly { readonly value: V; readonly label: string }[];
    readonly onChange: (value: V) => void;
  },
) {
  const id = controlId(props.name);
  return (
    <div className={`field${props.error ? ' field-refused' : ''}`}>
      <label htmlFor={id}>{props.label}</label>
      <select
        id={id}
        name={props.name}
        disabled={props.disabled}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value as V)}
        {...describedBy(props)}
      >
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <Described name={props.name} error={props.error} hint={props.hint} />
    </div>
  );
}

export function CheckField(
  props: Common & { readonly checked: boolean; readonly onChange: (checked: boolean) => void },
) {
  const id = controlId(props.name);
  return (
    <div className={`field field-check${props.error ? ' field-refused' : ''}`}>
      <input
        id={id}
        name={props.name}
        type="checkbox"
        disabled={props.disabled}
        checked={props.checked}
        onChange={(e) => props.onChange(e.target.checked)}
        {...describedBy(props)}
      />
      <label htmlFor={id}>{props.label}</label>
      <Described name={props.name} error={props.error} hint={props.hint} />
    </div>
  );
}
