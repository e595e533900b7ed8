/**
 * Lookup tables that a provider-supplied key cannot escape (docs/security.md, security-requirements.md
 * I2): a plain object literal answers `table["__proto__"]`, `table["toString"]` and
 * `table["constructor"]` with `Object.prototype` or a function, so `STOP_REASONS[raw] ?? "other"`
 * returned `{}` or a function for a hostile `finish_reason`. Every string-keyed constant table in
 * lib/ is built with {@link lookupTable} (or is a `Map`); eslint.config.js refuses a plain one.
 */

/**
 * A frozen copy of `entries` with no prototype: a key it does not list reads as `undefined`,
 * whatever the key's name.
 */
export function lookupTable<T extends Record<string, unknown>>(entries: T): Readonly<T> {
  return Object.freeze(Object.assign(Object.create(null) as T, entries));
}
