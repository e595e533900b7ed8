/**
 * A minimal observable state holder for UI models (DESIGN.md, "Style to follow" 4: models take a
 * connector and hold state; components only render it). No dependency beyond `preact/hooks`.
 */
import { useEffect, useReducer } from 'preact/hooks';

/** Immutable state snapshots; `set` replaces the snapshot and notifies listeners. */
export class Store<S extends object> {
  private readonly listeners = new Set<() => void>();
  private current: S;

  constructor(initial: S) {
    this.current = initial;
  }

  /** The current snapshot (never mutated in place). */
  get state(): S {
    return this.current;
  }

  /** Listens to state changes; returns the function that stops listening. */
  watch(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  protected set(patch: Partial<S> | ((s: S) => Partial<S>)): void {
    const p = typeof patch === 'function' ? patch(this.current) : patch;
    this.current = { ...this.current, ...p };
    for (const l of [...this.listeners]) l();
  }
}

/** Re-renders the calling component whenever `store` changes; returns the current snapshot. */
export function useStore<S extends object>(store: Store<S>): S {
  const [, bump] = useReducer((n: number) => n + 1, 0);
  const seen = store.state;
  useEffect(() => {
    const stop = store.watch(() => bump(undefined));
    // A change between render and subscription would otherwise be missed.
    if (store.state !== seen) bump(undefined);
    return stop;
  }, [store]);
  return store.state;
}
