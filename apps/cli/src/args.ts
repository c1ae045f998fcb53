/**
 * A tiny argument parser shared by the commands: `--name value`, `--name=value`, boolean `--flag`, positionals,
 * and `--` to end the options. Every mistake is a {@link UsageError} that names the bad argument.
 */
import { UsageError } from './io';

/** How one option is read. */
export type OptionSpec =
  | {
      readonly type: 'integer';
      readonly min?: number;
      readonly max?: number;
      readonly choices?: readonly number[];
      readonly default?: number;
    }
  | { readonly type: 'string'; readonly default?: string }
  | { readonly type: 'boolean' };

/** The options a command accepts, by name without the leading `--`. */
export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

type ValueOf<S extends OptionSpec> = S extends { type: 'integer' }
  ? number
  : S extends { type: 'boolean' }
    ? boolean
    : string;
type HasDefault<S> = S extends { type: 'boolean' }
  ? true
  : S extends { default: number | string }
    ? true
    : false;

/** Parsed options: booleans are always present, options with a default too, others may be undefined. */
export type ParsedOptions<T extends OptionSpecs> = {
  -readonly [K in keyof T]: HasDefault<T[K]> extends true ? ValueOf<T[K]> : ValueOf<T[K]> | undefined;
};

/** The parser's result. */
export interface Parsed<T extends OptionSpecs> {
  readonly options: ParsedOptions<T>;
  readonly positionals: readonly string[];
}

/**
 * Parses `argv` against `specs`.
 * @param command the command name, for messages
 * @param allowPositionals whether bare arguments are accepted
 * @throws UsageError for an unknown option, a missing or bad value, an option given twice, or an unexpected
 *   argument
 */
export function parseArgs<T extends OptionSpecs>(
  command: string,
  argv: readonly string[],
  specs: T,
  allowPositionals = false,
): Parsed<T> {
  const values: Record<string, string | number | boolean | undefined> = {};
  const seen = new Set<string>();
  const positionals: string[] = [];
  const known = Object.keys(specs)
    .map((k) => `--${k}`)
    .join(', ');
  let onlyPositionals = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (onlyPositionals || !arg.startsWith('--')) {
      if (!allowPositionals) throw new UsageError(`unexpected argument '${arg}'`, command);
      positionals.push(arg);
      continue;
    }
    if (arg === '--') {
      onlyPositionals = true;
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    const spec = Object.prototype.hasOwnProperty.call(specs, name) ? specs[name] : undefined;
    if (spec === undefined) {
      throw new UsageError(
        `unknown option '--${name}'${known ? ` (options: ${known})` : ' (it takes no options)'}`,
        command,
      );
    }
    if (seen.has(name)) throw new UsageError(`option '--${name}' is given twice`, command);
    seen.add(name);
    if (spec.type === 'boolean') {
      if (eq >= 0) throw new UsageError(`option '--${name}' takes no value`, command);
      values[name] = true;
      continue;
    }
    let raw: string | undefined;
    if (eq >= 0) raw = arg.slice(eq + 1);
    else {
      const next = argv[i + 1];
      if (next !== undefined && !next.startsWith('--')) {
        raw = next;
        i++;
      }
    }
    if (raw === undefined || raw === '') throw new UsageError(`option '--${name}' needs a value`, command);
    values[name] = spec.type === 'integer' ? parseInteger(command, name, raw, spec) : raw;
  }
  for (const [name, spec] of Object.entries(specs)) {
    if (values[name] !== undefined) continue;
    if (spec.type === 'boolean') values[name] = false;
    else if (spec.default !== undefined) values[name] = spec.default;
  }
  return { options: values as ParsedOptions<T>, positionals };
}

function parseInteger(
  command: string,
  name: string,
  raw: string,
  spec: Extract<OptionSpec, { type: 'integer' }>,
): number {
  const n = /^-?\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n))
    throw new UsageError(`option '--${name}' must be a whole number, got '${raw}'`, command);
  if (spec.choices !== undefined && !spec.choices.includes(n)) {
    throw new UsageError(`option '--${name}' must be ${spec.choices.join(' or ')}, got ${n}`, command);
  }
  if ((spec.min !== undefined && n < spec.min) || (spec.max !== undefined && n > spec.max)) {
    const range =
      spec.max === undefined
        ? `at least ${spec.min}`
        : spec.min === undefined
          ? `at most ${spec.max}`
          : `from ${spec.min} to ${spec.max}`;
    throw new UsageError(`option '--${name}' must be ${range}, got ${n}`, command);
  }
  return n;
}
