/**
 * Values built on first use (docs/architecture.md#the-service-workers-start-up): the protocol's and the
 * transcript's zod schemas are module-level constants, and constructing them all is most of what the
 * service worker's JavaScript does when it wakes (a few hundred zod objects, measured in
 * bench/README.md). A service worker cannot `import()`, so instead each constant is this stand-in,
 * which builds the real value the first time anything reads it.
 */

/**
 * A stand-in for `build()`'s value, typed as that value: the first read of any property (a method
 * call, `in`, a spread, `Object.keys`, `instanceof` on a zod class, which reads `_zod`) builds it once
 * and forwards to it from then on. `build` must not read its own result. Errors thrown by `build`
 * reach the first reader (and the next, which tries again).
 */
export function onFirstUse<T extends object>(build: () => T): T {
  let value: T | undefined;
  const real = (): T => (value ??= build());
  return new Proxy({} as T, {
    get: (_target, key) => Reflect.get(real(), key),
    set: (_target, key, v) => Reflect.set(real(), key, v),
    has: (_target, key) => Reflect.has(real(), key),
    ownKeys: () => Reflect.ownKeys(real()),
    // Reported configurable: the proxy's own (empty) target never holds the property, and a
    // non-configurable report would break the Proxy invariants (zod's `_zod` is non-configurable).
    getOwnPropertyDescriptor: (_target, key) => {
      const d = Reflect.getOwnPropertyDescriptor(real(), key);
      return d && { ...d, configurable: true };
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
  });
}
