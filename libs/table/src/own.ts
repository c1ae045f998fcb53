/**
 * Reading client objects (commands, rules) by their own properties only: a field the client did not send reads as
 * undefined, never as something inherited (from a polluted Object.prototype, or an object made with a prototype).
 */

/** The own enumerable fields of `value`, copied into an object without a prototype. */
export function ownFields(value: object): Record<string, unknown> {
  const fields = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(value)) fields[key] = (value as Record<string, unknown>)[key];
  return fields;
}
